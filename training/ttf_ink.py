"""Pen ink from handwriting-style TrueType/OpenType fonts.

A text line is drawn with the font (Pillow), thinned to a one-pixel centre line (Zhang-Suen),
and the centre line is traced into pen strokes: runs of skeleton pixels between line ends and
crossings, ordered left to right. The strokes then get the same kind of variation inkgen gives
its Hershey ink (slant, rotation, baseline wobble, resampling, jitter, timing) and are placed on
a board, so the service draws them with its own pen exactly as it draws a person's ink.

Hangul: a text holding a Hangul syllable (U+AC00-U+D7A3) is drawn larger (HANGUL_RENDER_SIZE,
the strokes of a syllable are short and close together), spurs are pruned at a shorter length,
the ink is scaled by the height of the font's syllables instead of its `x`, and the strokes are
put in a plausible writing order: syllables (and the other characters) left to right; within a
syllable, the jamo regions in the order initial consonant, vowel, final consonant (from the
syllable's decomposition and its layout: vowel to the right, below, or both), each region's
strokes top to bottom and left to right, each open stroke drawn from its top or left end.
With `ticks` (gen_ink's "hangul_ticks"), the top tick of a ㅎ or ㅊ that the thinning absorbed
into the bar below it is drawn again (`restore_ticks`); with a `Cursive`, strokes are joined as a
quick hand leaves its pen down between them. Latin-only text is drawn exactly as before.

Used by gen_ink.py for the fonts listed under "ttf_fonts" in mix.json (and kor/mix-kor.json).
"""
import functools
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

RENDER_SIZE = 72            # font size in pixels for the raster that is thinned
HANGUL_RENDER_SIZE = 112    # the same for text with Hangul syllables
HANGUL_SPUR = 0.07          # spurs shorter than this share of a syllable's height are pruned
_fonts = {}
_missing = {}
_covered = {}


def _font(path, size=RENDER_SIZE):
    if (path, size) not in _fonts:
        _fonts[(path, size)] = ImageFont.truetype(path, size)
    return _fonts[(path, size)]


def is_hangul(ch):
    return "\uac00" <= ch <= "\ud7a3"


def has_hangul(text):
    return any(is_hangul(ch) for ch in text)


def has_ticked(text):
    """Whether `text` has a Hangul syllable with a ㅎ or ㅊ (whose tick tracing can lose)."""
    return any(is_hangul(ch) and _ticked(ch) for ch in text)


def _mask(font, text):
    mask = font.getmask(text, mode="1")
    return np.array(mask, dtype=np.uint8).reshape(mask.size[::-1])


def covers(path, text):
    """Whether the font has a glyph of its own for every non-space character of `text`
    (a missing glyph is drawn as the font's .notdef box, like an unassigned code point)."""
    font = _font(path)
    if path not in _missing:
        _missing[path] = _mask(font, "\ue000").tobytes()
    for ch in set(text) - {" ", "\n"}:
        if (path, ch) not in _covered:
            m = _mask(font, ch)
            _covered[(path, ch)] = not (m.size == 0 or not m.any() or m.tobytes() == _missing[path])
        if not _covered[(path, ch)]:
            return False
    return True


@functools.lru_cache(maxsize=None)
def x_height(path):
    """Height of the font's `x` in raster pixels."""
    box = _font(path).getbbox("x")
    return max(4.0, float(box[3] - box[1]))


@functools.lru_cache(maxsize=None)
def hangul_height(path, size=HANGUL_RENDER_SIZE):
    """Height of the font's syllables (from the top of 한 to the bottom of 글) in raster pixels."""
    box = _font(path, size).getbbox("한글")
    return max(8.0, float(box[3] - box[1]))


def hangul_spur(path, size=HANGUL_RENDER_SIZE):
    """The longest spur pruned from the font's Hangul skeletons, in raster pixels."""
    return max(3, int(HANGUL_SPUR * hangul_height(path, size)))


def hangul_x_height(path, size=HANGUL_RENDER_SIZE):
    """What stands for the x-height when Hangul is scaled: 0.7 of a syllable's height (a
    syllable is about as tall as a Latin capital), so the Params' x-height ranges give Hangul
    the size Latin capitals get."""
    return 0.7 * hangul_height(path, size)


def raster(path, line, size=RENDER_SIZE, spans=False):
    """The line drawn in black on white, as a 0/1 array, and the baseline row (and, with
    `spans`, every character's horizontal extent in the raster, from the advances)."""
    font = _font(path, size)
    left, top, right, bottom = font.getbbox(line)
    pad = 6
    width, height = right - left + 2 * pad, bottom - top + 2 * pad
    image = Image.new("L", (max(1, width), max(1, height)), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), line, font=font, fill=255)
    ascent, _ = font.getmetrics()
    result = (np.asarray(image) > 127).astype(np.uint8), pad - top + ascent
    if spans:
        x0 = pad - left
        advances = [font.getlength(line[:i]) for i in range(len(line) + 1)]
        result += ([(x0 + advances[i], x0 + advances[i + 1]) for i in range(len(line))],)
    return result


def thin(image):
    """Zhang-Suen thinning of a 0/1 array to one-pixel-wide lines."""
    img = image.copy()
    while True:
        changed = False
        for step in (0, 1):
            p = np.pad(img, 1)
            n = [p[:-2, 1:-1], p[:-2, 2:], p[1:-1, 2:], p[2:, 2:],
                 p[2:, 1:-1], p[2:, :-2], p[1:-1, :-2], p[:-2, :-2]]   # P2..P9, clockwise from north
            b = sum(x.astype(np.int32) for x in n)
            a = sum(((n[i] == 0) & (n[(i + 1) % 8] == 1)).astype(np.int32) for i in range(8))
            if step == 0:
                c = (n[0] * n[2] * n[4] == 0) & (n[2] * n[4] * n[6] == 0)
            else:
                c = (n[0] * n[2] * n[6] == 0) & (n[0] * n[4] * n[6] == 0)
            remove = (img == 1) & (b >= 2) & (b <= 6) & (a == 1) & c
            if remove.any():
                img[remove] = 0
                changed = True
        if not changed:
            return img


_OFFSETS = [(-1, 0), (0, 1), (1, 0), (0, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)]


def _graph(pixels):
    """8-neighbour links between skeleton pixels, without a diagonal step where a 4-connected
    path through a third pixel joins the same two (staircases would otherwise be full of tiny
    triangles that read as crossings)."""
    links = {}
    for (r, c) in pixels:
        ns = []
        for dr, dc in _OFFSETS:
            q = (r + dr, c + dc)
            if q in pixels and not (dr and dc and ((r + dr, c) in pixels or (r, c + dc) in pixels)):
                ns.append(q)
        links[(r, c)] = ns
    return links


def _spurs(links, min_spur):
    """Pixels of spurs: runs shorter than `min_spur` from a line end to a crossing (thinning
    artefacts at corners and stroke ends), without the crossing pixel itself."""
    doomed = set()
    for p, ns in links.items():
        if len(ns) != 1:
            continue
        run, previous, current = [p], None, p
        while len(run) <= min_spur:
            nxt = [q for q in links[current] if q != previous]
            if len(links[current]) > 2 or not nxt:
                break
            previous, current = current, nxt[0]
            run.append(current)
        if len(links[current]) > 2 and len(run) - 1 < min_spur:
            doomed.update(run[:-1])
    return doomed


def pen_walks(skeleton, min_spur):
    """Strokes (lists of (row, col)) a pen could have drawn along the skeleton.

    Spurs are pruned first. A walk starts at the leftmost line end still unwalked (at any
    unwalked pixel once only loops are left) and follows unwalked links; at a crossing it
    keeps the straightest direction, as a pen passing through a t or an x does. Isolated
    pixels are dots.
    """
    pixels = set(zip(*np.nonzero(skeleton)))
    pixels -= _spurs(_graph(pixels), min_spur)
    links = _graph(pixels)
    walked = set()

    def unwalked(p):
        return [q for q in links[p] if (p, q) not in walked]

    def walk(start):
        path = [start]
        while True:
            options = unwalked(path[-1])
            if not options:
                return path
            if len(path) >= 2:
                back = path[max(0, len(path) - 4)]
                heading = (path[-1][0] - back[0], path[-1][1] - back[1])
                options.sort(key=lambda q: -((q[0] - path[-1][0]) * heading[0] + (q[1] - path[-1][1]) * heading[1])
                             / math.hypot(q[0] - path[-1][0], q[1] - path[-1][1]))
            q = options[0]
            walked.add((path[-1], q))
            walked.add((q, path[-1]))
            path.append(q)

    order = sorted(pixels, key=lambda p: (p[1], p[0]))
    strokes = [[p, p] for p in order if not links[p]]
    for ends_only in (True, False):
        for p in order:
            if (len(links[p]) == 1 or not ends_only) and unwalked(p):
                strokes.append(walk(p))
    return strokes


_FAR = 10 ** 6


def _shifted(a, dr, dc, fill):
    """`a` moved so that out[r, c] = a[r + dr, c + dc] (`fill` where that is outside)."""
    out = np.full_like(a, fill)
    h, w = a.shape
    src_r, dst_r = (slice(dr, h), slice(0, h - dr)) if dr >= 0 else (slice(0, h + dr), slice(-dr, h))
    src_c, dst_c = (slice(dc, w), slice(0, w - dc)) if dc >= 0 else (slice(0, w + dc), slice(-dc, w))
    out[dst_r, dst_c] = a[src_r, src_c]
    return out


def nearest(seed, reach):
    """For every pixel, the squared Euclidean distance to the nearest `seed` pixel and that
    pixel's row and column (_FAR and -1 beyond `reach` along either axis). Exact within reach:
    a column pass, then a row pass over the column pass's results."""
    h, w = seed.shape
    rows = np.broadcast_to(np.arange(h)[:, None], (h, w))
    cols = np.broadcast_to(np.arange(w)[None, :], (h, w))
    f = np.where(seed, 0, _FAR)
    fr = np.where(seed, rows, -1)
    for k in range(1, reach + 1):
        for dr in (k, -k):
            better = _shifted(seed, dr, 0, False) & (k * k < f)
            f = np.where(better, k * k, f)
            fr = np.where(better, rows + dr, fr)
    d, nr, nc = f.copy(), fr.copy(), np.where(f < _FAR, cols, -1)
    for k in range(1, reach + 1):
        for dc in (k, -k):
            fs = _shifted(f, 0, dc, _FAR)
            better = (fs < _FAR) & (fs + k * k < d)
            d = np.where(better, fs + k * k, d)
            nr = np.where(better, _shifted(fr, 0, dc, -1), nr)
            nc = np.where(better, cols + dc, nc)
    return d, nr, nc


def _within(links, start, steps):
    """Skeleton pixels at most `steps` links from `start`, with their number of links."""
    dist, frontier = {start: 0}, [start]
    for k in range(1, steps + 1):
        reached = []
        for p in frontier:
            for q in links.get(p, ()):
                if q not in dist:
                    dist[q] = k
                    reached.append(q)
        frontier = reached
    return dist


def _across_bar(dist, steps, base, direction):
    """Whether the skeleton runs straight through `base` (two pixels at least steps/2 links
    away lie in nearly opposite directions from it) and `direction` leaves it across them."""
    units = []
    for q, k in dist.items():
        if 2 * k >= steps:
            v = np.array(q, dtype=float) - base
            units.append(v / np.hypot(*v))
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            if a @ b < -0.7 and abs(direction @ a) < 0.6 and abs(direction @ b) < 0.6:
                return True
    return False


def _ticked(ch):
    """Whether Hangul syllable `ch` has a ㅎ or ㅊ (initial, final, or in a final ㄶ/ㅀ)."""
    index = ord(ch) - 0xAC00
    return index // 588 in (14, 18) or index % 28 in (6, 15, 23, 27)


def _tickable(ch):
    """Whether `ch` is a syllable with a ㅎ or ㅊ, or the compatibility jamo ㅊ ㅎ ㄶ ㅀ."""
    return (is_hangul(ch) and _ticked(ch)) or ch in _TICKED_JAMO


def _tick_place(ch, u, v):
    """Whether (u, v) of syllable `ch`'s ink box (0..1, y down) is where the top tick of its ㅎ or
    ㅊ stands: the top fifth of an initial one (its left part when the vowel stands to the
    right), the upper middle of a final one (the right half of a final ㄶ/ㅀ). For a stand-alone
    jamo: the top fifth of ㅊ and ㅎ, the top quarter of the right half of ㄶ and ㅀ."""
    if ch in _TICKED_JAMO:
        return v <= 0.2 if _TICKED_JAMO[ch] == "top" else (u >= 0.5 and v <= 0.25)
    index = ord(ch) - 0xAC00
    layout = _jamo_layout(ch)[0]
    if index // 588 in (14, 18) and v <= 0.2 and (layout == "below" or u <= 0.6):
        return True
    final = index % 28
    return 0.45 <= v <= 0.75 and (final in (23, 27) or (final in (6, 15) and u >= 0.5))


def restore_ticks(image, runs, line, spans):
    """Strokes for the top ticks of ㅎ and ㅊ that the thinning lost.

    A tick standing on a bar by less than the stroke is thick is absorbed into the bar by the
    thinning (or left as a spur short enough to be pruned): ㅊ is then drawn as ㅈ. Within each
    syllable of `line` holding a ㅎ or ㅊ, the ink that the traced centre lines leave uncovered
    (farther from its nearest centre-line pixel than that pixel is from the background) is
    grouped into components; one whose far end rises above a bar by at least 2 px and 0.4 of
    the stroke's half-width, goes up (within about 37° of vertical), leaves the bar across it
    where the bar runs straight through, and stands where the syllable's ㅎ or ㅊ has its tick
    (`_tick_place`) gets a stroke from half a stroke-width inside its far end down to the bar.
    Stroke ends, corners, serifs and the nubs of other jamo fail one of these tests."""
    if not any(_tickable(ch) for ch in line):
        return []
    ink = image.astype(bool)
    pixels = {(int(r), int(c)) for run in runs for r, c in run}
    ends = {tuple(run[i]) for run in runs for i in (0, -1) if len(run) > 1}
    links = None
    strokes = []
    for ch, (a, b) in zip(line, spans):
        if not _tickable(ch):
            continue
        c0, c1 = max(0, int(a) - 32), min(ink.shape[1], int(math.ceil(b)) + 32)
        box = ink[:, max(0, int(a)):min(ink.shape[1], int(math.ceil(b)))]
        ys, xs = np.nonzero(box.any(axis=1))[0], np.nonzero(box.any(axis=0))[0] + max(0, int(a))
        if not len(ys) or not pixels:
            continue
        crop = ink[:, c0:c1]
        skeleton = np.zeros_like(crop)
        for r, c in pixels:
            if c0 <= c < c1:
                skeleton[r, c - c0] = True
        if not skeleton.any():
            continue
        depth = np.sqrt(nearest(~crop, 24)[0])
        d2, nr, nc = nearest(skeleton, 32)
        width = np.where(nr >= 0, depth[np.maximum(nr, 0), np.maximum(nc, 0)], 0.0)
        excess = np.sqrt(d2) - width
        loose = crop & (nr >= 0) & (excess > 1.0)
        seen = np.zeros_like(loose)
        for start in zip(*np.nonzero(loose)):
            if seen[start]:
                continue
            component, stack = [], [start]
            seen[start] = True
            while stack:
                r, c = stack.pop()
                component.append((r, c))
                for q in ((r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)):
                    if 0 <= q[0] < crop.shape[0] and 0 <= q[1] < crop.shape[1] and loose[q] and not seen[q]:
                        seen[q] = True
                        stack.append(q)
            top = max(excess[p] for p in component)
            tip = tuple(np.round(np.mean([p for p in component if excess[p] >= top - 1.0], axis=0)).astype(int))
            if not crop[tip] or nr[tip] < 0:
                continue
            u = (tip[1] + c0 - xs[0]) / max(1, xs[-1] - xs[0])
            v = (tip[0] - ys[0]) / max(1, ys[-1] - ys[0])
            base = (int(nr[tip]), int(nc[tip]) + c0)
            if base in ends or not (a <= tip[1] + c0 < b) or not _tick_place(ch, u, v):
                continue
            steps = max(4, int(round(3 * depth[base[0], base[1] - c0])))
            links = links or _graph(pixels)
            near = _within(links, base, steps)
            half = float(np.median([depth[p[0], p[1] - c0] for p in near if c0 <= p[1] < c1]))
            rise = np.array((tip[0], tip[1] + c0), dtype=float) - base
            length = float(np.hypot(*rise))
            if (length - half < max(2.0, 0.4 * half) or len(component) < 0.3 * half * half
                    or -rise[0] / length < 0.8 or not _across_bar(near, steps, base, rise / length)):
                continue
            end = base + rise * (length - 0.5 * half) / length
            n = int(max(abs(end - base))) + 1
            strokes.append([(int(round(end[0] + (base[0] - end[0]) * i / max(1, n - 1))),
                             int(round(end[1] + (base[1] - end[1]) * i / max(1, n - 1)))) for i in range(n)])
    return strokes


def smooth(points):
    if len(points) < 3:
        return points
    padded = np.vstack([points[:1], points, points[-1:]])
    return (padded[:-2] + 2 * padded[1:-1] + padded[2:]) / 4


def arc_length(poly):
    """Distance along the polyline from its first point to each of its points."""
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(poly, axis=0), axis=1))])


def resample(poly, step):
    """Points every `step` along the polyline (a dot stays a two-point stroke)."""
    if len(poly) == 1:
        return poly.copy()
    s = arc_length(poly)
    if s[-1] < 1e-9:
        return np.vstack([poly[:1], poly[:1]])
    n = max(1, int(math.ceil(s[-1] / step)))
    ts = np.linspace(0.0, s[-1], n + 1)
    return np.stack([np.interp(ts, s, poly[:, 0]), np.interp(ts, s, poly[:, 1])], 1)


# Vowels (index of the syllable's medial, 0 = ㅏ ... 20 = ㅣ) by where they stand: to the
# right of the initial consonant, below it, or both (ㅘ ㅙ ㅚ ㅝ ㅞ ㅟ ㅢ).
_VOWEL_RIGHT = {0, 1, 2, 3, 4, 5, 6, 7, 20}
_VOWEL_BELOW = {8, 12, 13, 17, 18}


def _jamo_layout(ch):
    """(vowel position "right" / "below" / "both", whether there is a final consonant)."""
    index = ord(ch) - 0xAC00
    vowel, final = (index % 588) // 28, index % 28
    return ("right" if vowel in _VOWEL_RIGHT else "below" if vowel in _VOWEL_BELOW else "both"), final > 0


def _region(u, v, layout, final):
    """Writing-order rank of a stroke whose centre is at (u, v) of its syllable's ink box (0..1,
    y down): 0 initial consonant, 1 vowel (1.5 the right-hand part of a compound vowel),
    2 final consonant."""
    if final and v > 0.62:
        return 2
    if layout == "right":
        return 0 if u < 0.5 else 1
    if layout == "below":
        return 0 if v < (0.36 if final else 0.5) else 1
    if u < 0.6 and v < (0.32 if final else 0.45):
        return 0
    return 1 if u < 0.68 else 1.5


def _top_left_first(points):
    """An open stroke turned to start at its top end (or its left end when it runs sideways):
    where a hand starts a Hangul stroke."""
    a, b = points[0], points[-1]
    if np.hypot(*(a - b)) < 2.0:
        return points
    return points if a[0] + 2 * a[1] <= b[0] + 2 * b[1] else points[::-1]


def _reading_order(strokes, band):
    """Strokes top to bottom, those whose tops lie within `band` of each other left to right."""
    rest = sorted(strokes, key=lambda s: (float(s[:, 1].min()), float(s[:, 0].min())))
    ordered = []
    while rest:
        top = float(rest[0][:, 1].min())
        row = [s for s in rest if float(s[:, 1].min()) < top + band]
        rest = [s for s in rest if float(s[:, 1].min()) >= top + band]
        ordered += sorted(row, key=lambda s: (float(s[:, 0].min()), float(s[:, 1].mean())))
    return ordered


def _loosen(regions, layout, w, h, rng, looseness):
    """A syllable's jamo moved apart as hands do and fonts do not: the final consonant lower,
    the vowel further right (or lower, under the initial); each by up to `looseness` times a
    fixed share of the syllable's box. Only moved, never resized. The draws come from the
    sample's generator, so the rest of a mix's samples (texts included) differ from the same
    mix without looseness."""
    a = looseness
    vowel = (rng.uniform(0, 0.25 * a) * w if layout != "below" else 0.0,
             rng.uniform(0, 0.2 * a) * h if layout == "below" else 0.0)
    final = (0.5 * vowel[0], rng.uniform(0, 0.35 * a) * h)
    return {rank: group if rank == 0 else [st + np.array(final if rank == 2 else vowel) for st in group]
            for rank, group in regions.items()}


def _rotate_scale(points, centre, angle, sx, sy):
    """`points` rotated by `angle` (radians) and scaled by (sx, sy) about `centre`."""
    c, s = math.cos(angle), math.sin(angle)
    d = (points - centre) * (sx, sy)
    return centre + np.stack([d[:, 0] * c - d[:, 1] * s, d[:, 0] * s + d[:, 1] * c], 1)


def _vary(regions, w, h, rng, strength):
    """A syllable's shapes varied as one hand's letters vary and one font's do not: each jamo
    scaled (independently in x and y), turned and shifted a little about its own centre, then
    each stroke turned and lengthened or shortened about its own centre. Sizes are shares of
    the syllable's box times `strength`; the writing order stays the same."""
    a = strength
    out = {}
    for rank, group in regions.items():
        allp = np.vstack(group)
        centre = 0.5 * (allp.min(0) + allp.max(0))
        sx, sy = rng.uniform(1 - 0.15 * a, 1 + 0.15 * a, 2)
        angle = math.radians(rng.normal(0, 4 * a))
        shift = rng.normal(0, 0.035 * a, 2) * (w, h)
        varied = []
        for st in group:
            st = _rotate_scale(st, centre, angle, sx, sy) + shift
            own = 0.5 * (st.min(0) + st.max(0))
            k = rng.uniform(1 - 0.15 * a, 1 + 0.15 * a)
            varied.append(_rotate_scale(st, own, math.radians(rng.normal(0, 5 * a)), k, k))
        out[rank] = varied
    return out


def _bend(regions, w, h, rng, strength):
    """A syllable's strokes bent as a hand bends what a font draws straight: the whole syllable
    moved by one smooth random field (two waves in x and two in y, each between half a cycle and
    one and a half cycles across the syllable, amplitude about 3 % of its height each), so its
    proportions change unevenly, then each stroke bowed sideways about its chord (amplitude about
    4 % of the stroke's length). Sizes are times `strength`; the writing order stays the same."""
    a = strength
    allp = np.vstack([st for group in regions.values() for st in group])
    low = allp.min(0)
    waves = []
    for axis in (0, 1):
        for _ in range(2):
            frequency = rng.uniform(0.5, 1.5, 2) * rng.choice([-1.0, 1.0], 2)
            waves.append((axis, frequency, rng.uniform(0, 2 * math.pi), rng.normal(0, 0.03 * a) * h))
    out = {}
    for rank, group in regions.items():
        bent = []
        for st in group:
            uv = (st - low) / (w, h)
            moved = st.copy()
            for axis, frequency, phase, amplitude in waves:
                moved[:, axis] += amplitude * np.sin(2 * math.pi * (uv @ frequency) + phase)
            chord = moved[-1] - moved[0]
            length = float(np.hypot(*chord))
            if len(moved) > 2 and length > 1.0:
                d = arc_length(moved)
                s = d / max(d[-1], 1e-9)
                normal = np.array([-chord[1], chord[0]]) / length
                moved = moved + np.outer(np.sin(math.pi * s) * rng.normal(0, 0.04 * a) * length, normal)
            bent.append(moved)
        out[rank] = bent
    return out


def _syllable_regions(group, ch):
    """The strokes of syllable `ch` (open strokes turned to start where a hand starts) by jamo
    region (`_region`), and the syllable's ink box width and height."""
    group = [_top_left_first(s) for s in group]
    allp = np.vstack(group)
    (x0, y0), (x1, y1) = allp.min(0), allp.max(0)
    w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
    layout, final = _jamo_layout(ch)
    regions = {}
    for s in group:
        c = 0.5 * (s.min(0) + s.max(0))
        regions.setdefault(_region((c[0] - x0) / w, (c[1] - y0) / h, layout, final), []).append(s)
    return regions, w, h


_donated = {}


def _donor_regions(path, ch, ticks=False):
    """Syllable `ch` drawn alone in the font at `path`, by jamo region (cached)."""
    key = (path, ch, ticks and _ticked(ch))
    if key not in _donated:
        strokes = _hangul_strokes(path, ch, HANGUL_RENDER_SIZE, key[2])[0]
        _donated[key] = _syllable_regions(strokes, ch)[0] if strokes else None
    return _donated[key]


def _jamo_of(regions):
    """Regions grouped by jamo: the two parts of a compound vowel (ranks 1 and 1.5) are one."""
    jamo = {}
    for rank, group in regions.items():
        jamo.setdefault(2 if rank == 2 else 0 if rank == 0 else 1, []).extend(group)
    return jamo


def _mix(regions, ch, h, rng, donors, ticks=False):
    """A syllable whose jamo come from several fonts, as no font and every hand draws one: one
    donor font (of `donors`, the other training fonts that have `ch`) draws `ch` alone, and each
    of its jamo replaces this font's with even odds, fitted into the box this font's jamo fills.
    Regions are found the same way in both fonts, so a jamo replaces the same jamo."""
    donor = _donor_regions(donors[int(rng.integers(len(donors)))], ch, ticks) if donors else None
    if not donor:
        return regions
    own, theirs = _jamo_of(regions), _jamo_of(donor)
    out = {}
    for rank, group in own.items():
        if rank not in theirs or rng.random() < 0.5:
            out[rank] = group
            continue
        a, b = np.vstack(group), np.vstack(theirs[rank])
        a_lo, a_hi, b_lo, b_hi = a.min(0), a.max(0), b.min(0), b.max(0)
        # A margin of a tenth of the syllable keeps a thin jamo (a vertical bar) from being
        # stretched sideways to another's width.
        scale = (a_hi - a_lo + 0.1 * h) / (b_hi - b_lo + 0.1 * h)
        out[rank] = [0.5 * (a_lo + a_hi) + (st - 0.5 * (b_lo + b_hi)) * scale for st in theirs[rank]]
    return out


def _out_of_square(regions, ch, path, ticks=False):
    """Syllable `ch` (with a final consonant) drawn out of square, as lettering without a square
    frame draws it: the initial consonant and the vowel as the font at `path` draws the syllable
    without the final (full height, not squeezed to make room), the final consonant hung below
    them, a twentieth of the syllable's height apart, where this font put it across. Unchanged
    when `ch` has no final, the font lacks the open syllable, or no final region was found."""
    final = (ord(ch) - 0xAC00) % 28
    if not final or 2 not in regions or not covers(path, chr(ord(ch) - final)):
        return regions
    donor = _donor_regions(path, chr(ord(ch) - final), ticks)
    upper_own = [st for rank, group in regions.items() if rank != 2 for st in group]
    if not donor or not upper_own:
        return regions
    theirs = np.vstack([st for group in donor.values() for st in group])
    own = np.vstack(upper_own)
    shift = own.min(0) - theirs.min(0)
    upper = {rank: [st + shift for st in group] for rank, group in donor.items()}
    bottom = float(theirs[:, 1].max() + shift[1])
    lowest = np.vstack(regions[2])
    drop = bottom + 0.05 * (bottom - float(own[:, 1].min())) - float(lowest[:, 1].min())
    return {**upper, 2: [st + (0.0, max(0.0, drop)) for st in regions[2]]}


# Hangul compatibility jamo (U+3131-U+318E): the initial consonants by index, the finals by
# index (0: none); the vowels are U+314F + index.
_INITIAL_JAMO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_FINAL_JAMO = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_TICKED_JAMO = {"ㅊ": "top", "ㅎ": "top", "ㄶ": "right", "ㅀ": "right"}
_jamo_glyphs = {}


def syllable_jamo(ch):
    """The compatibility jamo that spell syllable `ch`: initial, vowel and (if any) final."""
    index = ord(ch) - 0xAC00
    final = _FINAL_JAMO[index % 28].strip()
    return _INITIAL_JAMO[index // 588] + chr(0x314F + (index % 588) // 28) + final


def _jamo_glyph(path, jamo, ticks=False):
    """The strokes of compatibility jamo `jamo` as the font at `path` draws it standing alone
    (raster pixels, baseline at y = 0; cached), or None if the font has no such glyph."""
    key = (path, jamo, ticks and jamo in _TICKED_JAMO)
    if key not in _jamo_glyphs:
        strokes = _hangul_strokes(path, jamo, HANGUL_RENDER_SIZE, key[2])[0] if covers(path, jamo) else []
        _jamo_glyphs[key] = [_top_left_first(s) for s in strokes] or None
    return _jamo_glyphs[key]


def _box(strokes):
    allp = np.vstack(strokes)
    return allp.min(0), allp.max(0)


def _bar_y(strokes):
    """The height of a compound vowel's bar (of its ㅗ, ㅜ or ㅡ): of twelve bands of the glyph's
    height, the one whose ink reaches widest within the left three fifths, where the vertical
    part does not stand."""
    allp = np.vstack(strokes)
    lo, hi = allp.min(0), allp.max(0)
    left = allp[allp[:, 0] <= lo[0] + 0.6 * (hi[0] - lo[0])]
    bands = np.linspace(lo[1], hi[1], 13)
    spans = [np.ptp(left[(left[:, 1] >= a) & (left[:, 1] <= b), 0]) if ((left[:, 1] >= a) & (left[:, 1] <= b)).any()
             else 0.0 for a, b in zip(bands[:-1], bands[1:])]
    k = int(np.argmax(spans))
    return float(0.5 * (bands[k] + bands[k + 1]))


def _fixed_jamo(regions, ch, path, height, ticks=False):
    """Syllable `ch` built from jamo of fixed shapes, as out-of-square (탈네모) lettering builds
    it: each jamo is the font's stand-alone compatibility jamo at one size, whatever the
    syllable, rather than the squeezed shape the syllable gives it. The initial consonant stands
    top left; a vowel to its right (ㅏ ㅓ ㅣ ...) starts a little above it, one below it (ㅗ ㅜ ㅡ)
    is centred under it, and a compound vowel (ㅘ ㅢ ...) has its bar under it; the final
    consonant hangs under them all, flush with the initial's left side. The composition is scaled
    to the width of the syllable's initial and vowel as the font draws it and put at its top left,
    so the syllable keeps its place in the line and a final hangs below the line's other
    syllables. Unchanged when the font lacks one of the jamo."""
    jamo = syllable_jamo(ch)
    glyphs = [_jamo_glyph(path, j, ticks) for j in jamo]
    if any(g is None for g in glyphs):
        return regions
    scale = 0.6
    gap = 0.06 * height
    glyphs = [[st * scale for st in g] for g in glyphs]
    layout = _jamo_layout(ch)[0]

    def moved(strokes, left, top):
        lo, _ = _box(strokes)
        return [st + (left - lo[0], top - lo[1]) for st in strokes]

    initial = moved(glyphs[0], 0.0, 0.0)
    i_right, i_bottom = _box(initial)[1]
    vowel = glyphs[1]
    v_lo, v_hi = _box(vowel)
    if layout == "right":
        vowel = moved(vowel, i_right + gap, -0.1 * i_bottom)
    elif layout == "below":
        vowel = moved(vowel, 0.5 * i_right - 0.5 * (v_hi[0] - v_lo[0]), i_bottom + gap)
    else:
        vowel = moved(vowel, -0.05 * (v_hi[0] - v_lo[0]), i_bottom + gap - (_bar_y(vowel) - v_lo[1]))
    out = {0: initial, 1: vowel}
    upper_lo, upper_hi = _box(initial + vowel)
    if len(glyphs) == 3:
        out[2] = moved(glyphs[2], 0.0, upper_hi[1] + gap)
    # The width of the syllable's initial and vowel as the font draws it (the whole syllable
    # when no vowel region was found).
    own = [st for rank, group in regions.items() if rank != 2 for st in group] or \
        [st for group in regions.values() for st in group]
    own_lo, own_hi = _box(own)
    k = (own_hi[0] - own_lo[0]) / max(1.0, upper_hi[0] - upper_lo[0])
    return {rank: [(st - upper_lo) * k + own_lo for st in group] for rank, group in out.items()}


def _connector(a, b):
    """The path of a pen that does not lift between the end of stroke `a` and the start of `b`:
    a cubic curve leaving `a` in the direction it ended and arriving at `b` in the direction it
    starts, about one raster pixel per point (the strokes are resampled later)."""
    p0, p3 = a[-1], b[0]
    gap = float(np.hypot(*(p3 - p0)))
    if gap < 1.0:
        return np.empty((0, 2))
    leave = a[-1] - a[-min(len(a), 4)]
    arrive = b[min(len(b), 4) - 1] - b[0]
    leave = leave / max(float(np.hypot(*leave)), 1e-9)
    arrive = arrive / max(float(np.hypot(*arrive)), 1e-9)
    p1, p2 = p0 + 0.35 * gap * leave, p3 - 0.35 * gap * arrive
    t = np.linspace(0, 1, max(3, int(gap)) + 1)[1:-1, None]
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3


def _pen_down(a, b):
    """Strokes `a` and `b` as one stroke, joined by `_connector`."""
    return np.vstack([a, _connector(a, b), b])


class Cursive:
    """How quickly a sample's hand writes: with strength `s` (drawn per sample between 0 and the
    mix's "cursive"), consecutive strokes of a syllable closer than half its height are joined
    with odds 0.6 s, and the last stroke of a syllable to the first of the next syllable of the
    same word, closer than 0.8 of its height, with odds 0.3 s. Its draws come from a generator of
    its own, so the texts, fonts, places and every other variation are those of the same mix
    without it. Shares and reaches set beforehand, not tuned."""

    def __init__(self, rng, strength):
        self.rng = rng
        self.s = float(rng.uniform(0, strength))

    def _joins(self, a, b, share, reach):
        """Whether the pen stays down from the end of stroke `a` to the start of `b`: their gap is
        shorter than `reach`, and then with odds `share`."""
        return float(np.hypot(*(b[0] - a[-1]))) < reach and self.rng.random() < share

    def syllable(self, strokes, height):
        """`strokes` (one syllable's, in writing order) with neighbours joined (`_pen_down`): a
        quick hand does not lift its pen between them, and leaves the hairline."""
        out = []
        for s in strokes:
            if out and self._joins(out[-1], s, 0.6 * self.s, 0.5 * height):
                out[-1] = _pen_down(out[-1], s)
            else:
                out.append(s)
        return out

    def word(self, chars, line, height):
        """`chars` ([(index in `line`, strokes)], left to right) as one list of strokes, the
        strokes of neighbouring Hangul syllables joined."""
        out = []
        previous = None
        for i, strokes in chars:
            if (out and strokes and previous == i - 1 and is_hangul(line[i]) and is_hangul(line[i - 1])
                    and self._joins(out[-1], strokes[0], 0.3 * self.s, 0.8 * height)):
                out[-1] = _pen_down(out[-1], strokes[0])
                strokes = strokes[1:]
            out += strokes
            previous = i
        return out


def hangul_order(strokes, line, spans, height, rng=None, looseness=0.0, warp=0.0, mix=0.0, donors=(), bend=0.0,
                 ticks=False, path=None, square_out=0.0, hand_layout=0.0, cursive=None, fixed_jamo=False):
    """The strokes of a line holding Hangul in writing order (see the module docstring): each
    stroke goes to the character whose advance holds its centre (the nearest drawn character
    when none does); characters left to right. With `mix` > 0 (and `rng`), that share of the
    syllables take jamo from another font of `donors` (`_mix`, traced with `ticks`); with
    `looseness` > 0, each syllable's jamo are moved apart at random (`_loosen`); with `warp` > 0,
    their shapes and strokes are varied (`_vary`); with `bend` > 0, their strokes are bent
    (`_bend`). With `square_out` > 0 (and the line's font `path`), that share of the syllables
    with a final consonant are drawn out of square first (`_out_of_square`). With `hand_layout`
    > 0, the characters are placed as a hand places them (`HandLayout`). With `cursive` (a
    `Cursive`), strokes are joined as a quick hand joins them. With `fixed_jamo` (and `path`),
    every syllable is built from the font's jamo of fixed shapes (`_fixed_jamo`) after the draws
    above, whose results it replaces, so the generator goes on as without it."""
    drawn = [i for i, ch in enumerate(line) if not ch.isspace()]
    if not drawn:
        return strokes
    placed = HandLayout.draw(line, height, rng, hand_layout) if hand_layout > 0 and rng is not None else None
    groups = {i: [] for i in drawn}
    for s in strokes:
        cx = 0.5 * (float(s[:, 0].min()) + float(s[:, 0].max()))
        inside = [i for i in drawn if spans[i][0] <= cx < spans[i][1]]
        i = inside[0] if inside else min(drawn, key=lambda i: abs(0.5 * (spans[i][0] + spans[i][1]) - cx))
        groups[i].append(s)
    chars = []
    for i in drawn:
        group = groups[i]
        if not group:
            continue
        if not is_hangul(line[i]):
            mine = sorted(group, key=lambda s: float(s[:, 0].min()))
            chars.append((i, placed.place(mine, i) if placed else mine))
            continue
        regions, w, h = _syllable_regions(group, line[i])
        layout, has_final = _jamo_layout(line[i])
        if square_out > 0 and rng is not None and path and has_final and rng.random() < square_out:
            regions = _out_of_square(regions, line[i], path, ticks)
        if mix > 0 and rng is not None and rng.random() < mix:
            regions = _mix(regions, line[i], h, rng, [d for d in donors if covers(d, line[i])], ticks)
        if fixed_jamo and path:
            regions = _fixed_jamo(regions, line[i], path, height, ticks)
        if looseness > 0 and rng is not None:
            # Jamo of fixed shapes already hang their final: the draws are made, not used.
            loose = _loosen(regions, layout, w, h, rng, looseness)
            regions = regions if fixed_jamo and path else loose
        if warp > 0 and rng is not None:
            regions = _vary(regions, w, h, rng, warp)
        if bend > 0 and rng is not None:
            regions = _bend(regions, w, h, rng, bend)
        mine = [s for rank in sorted(regions) for s in _reading_order(regions[rank], 0.12 * height)]
        if cursive is not None:
            mine = cursive.syllable(mine, height)
        chars.append((i, placed.place(mine, i) if placed else mine))
    ordered = cursive.word(chars, line, height) if cursive is not None else [s for _, mine in chars for s in mine]
    return placed.widen(ordered) if placed else ordered


class HandLayout:
    """Where a hand puts the characters of a line, which a font's advances fix: one width for
    the whole line (the font's proportions made narrower or wider), one spacing between its
    characters (tight to loose) and, per character, a little more or less space before it, a
    size of its own and a place a little above or below the baseline. Sizes are shares of the
    syllable height times the strength; set beforehand from inkgen's ranges for Latin hands
    (glyph scale and shift, spacing), not tuned. Every value is drawn up front, the same number
    of draws for the same text, so the ink with restored ticks (drawn from a copy of the
    generator) gets the same places and sizes as the ink without them."""

    def __init__(self, aspect, offsets, scales, lifts):
        self.aspect, self.offsets, self.scales, self.lifts = aspect, offsets, scales, lifts

    @classmethod
    def draw(cls, line, height, rng, strength):
        a = strength
        aspect = math.exp(rng.uniform(-0.2, 0.2) * a)
        spacing = rng.uniform(-0.04, 0.2) * a * height
        n = len(line)
        gaps = spacing + rng.normal(0, 0.04 * a, n) * height
        scales = np.exp(rng.normal(0, 0.07 * a, n))
        lifts = rng.normal(0, 0.04 * a, n) * height
        return cls(aspect, np.cumsum(gaps), scales, lifts)

    def place(self, strokes, i):
        """The strokes of character `i`, scaled about their centre and moved to its place."""
        if not strokes:
            return strokes
        allp = np.vstack(strokes)
        centre = 0.5 * (allp.min(0) + allp.max(0))
        move = np.array([self.offsets[i], self.lifts[i]])
        return [(st - centre) * self.scales[i] + centre + move for st in strokes]

    def widen(self, strokes):
        """The line's strokes with its width."""
        return [st * (self.aspect, 1.0) for st in strokes]


@functools.lru_cache(maxsize=32)
def _traced(path, line, size):
    """A line's raster, baseline row, character spans and pen walks (cached, not to be changed:
    gen_ink draws a sample whose ticks are restored twice, once to keep its generator's stream)."""
    image, baseline, spans = raster(path, line, size, spans=True)
    return image, baseline, spans, pen_walks(thin(image), min_spur=hangul_spur(path, size))


def _hangul_strokes(path, line, size, ticks=False):
    """The traced strokes of a line holding Hangul, in raster pixels with the baseline at y = 0
    (in tracing order; with `ticks`, the restored ticks of ㅎ and ㅊ last), every character's
    horizontal extent and the font's syllable height."""
    image, baseline, spans, runs = _traced(path, line, size)
    height = hangul_height(path, size)
    if ticks:
        runs = runs + restore_ticks(image, runs, line, spans)
    return [smooth(np.array([(c, r - baseline) for r, c in run], dtype=float)) for run in runs], spans, height


def hangul_line_strokes(path, line, size=HANGUL_RENDER_SIZE, rng=None, looseness=0.0, warp=0.0, mix=0.0, donors=(),
                        bend=0.0, ticks=False, square_out=0.0, hand_layout=0.0, cursive=None, fixed_jamo=False):
    """Strokes of one line holding Hangul, in raster pixels, baseline at y = 0, in writing order
    (with `ticks`, the lost ticks of ㅎ and ㅊ restored; with `fixed_jamo`, syllables built from
    jamo of fixed shapes)."""
    strokes, spans, height = _hangul_strokes(path, line, size, ticks)
    return hangul_order(strokes, line, spans, height, rng, looseness, warp,
                        mix, [d for d in donors if d != path], bend, ticks, path, square_out, hand_layout, cursive,
                        fixed_jamo)


def line_strokes(path, line):
    """Strokes of one line in raster pixels, baseline at y = 0, left to right."""
    image, baseline = raster(path, line)
    runs = pen_walks(thin(image), min_spur=max(3, int(0.25 * x_height(path))))
    strokes = []
    for run in runs:
        pts = np.array([(c, r - baseline) for r, c in run], dtype=float)
        strokes.append(smooth(pts))
    strokes.sort(key=lambda s: float(s[:, 0].min()))
    return strokes


def make_sample(text, path, rng, P, board=(2000, 1500), jamo_looseness=0.0, jamo_warp=0.0, jamo_mix=0.0,
                donors=(), jamo_bend=0.0, hangul_ticks=False, square_out=0.0, hand_layout=0.0, cursive=0.0,
                cursive_seed=None, fixed_jamo=False):
    """Ink for `text` (lines separated by newlines) in the font at `path`, varied with the ranges
    of an inkgen.Params, in inkgen's stroke format ({"x", "y", "t"} lists). A text with Hangul
    is drawn at HANGUL_RENDER_SIZE, scaled by hangul_x_height and ordered by hangul_line_strokes,
    a share `jamo_mix` of its syllables taking jamo from other fonts of `donors`, its syllables'
    jamo moved apart by up to `jamo_looseness`, their shapes varied with strength `jamo_warp` and
    their strokes bent with strength `jamo_bend` (0: as the font draws them), and with
    `hangul_ticks` the ticks of ㅎ and ㅊ that tracing loses restored (restore_ticks), and a share
    `square_out` of its syllables with a final drawn out of square (`_out_of_square`), its
    characters placed as a hand places them with strength `hand_layout` (`HandLayout`), and with
    `cursive` > 0 its strokes joined as a quick hand joins them (`Cursive`, drawn from a generator
    seeded with `cursive_seed`), and with `fixed_jamo` its syllables built from the font's jamo of
    fixed shapes, out of square (`_fixed_jamo`)."""
    hangul = has_hangul(text)
    size = HANGUL_RENDER_SIZE if hangul else RENDER_SIZE
    xheight = hangul_x_height(path) if hangul else x_height(path)
    quick = Cursive(np.random.default_rng(cursive_seed), cursive) if hangul and cursive > 0 else None
    strokes_of = (functools.partial(hangul_line_strokes, rng=rng, looseness=jamo_looseness, warp=jamo_warp,
                                    mix=jamo_mix, donors=donors, bend=jamo_bend, ticks=hangul_ticks,
                                    square_out=square_out, hand_layout=hand_layout, cursive=quick,
                                    fixed_jamo=fixed_jamo)
                  if hangul else line_strokes)
    k = rng.uniform(*P.xheight) / xheight   # raster pixels -> board units
    line_spacing = rng.uniform(1.1, 1.4) * size
    strokes = []
    for index, line in enumerate(text.split("\n")):
        indent = rng.normal(0, 0.3) * xheight
        drift = math.radians(rng.normal(0, 1.0))
        for s in strokes_of(path, line):
            x, y = s[:, 0] + indent, s[:, 1]
            strokes.append(np.stack([x * math.cos(drift) - y * math.sin(drift),
                                     x * math.sin(drift) + y * math.cos(drift) + index * line_spacing], 1) * k)
    xh = xheight * k
    amp = rng.uniform(*P.wobble) * xh
    wavelength = rng.uniform(4, 12) * xh
    phase = rng.uniform(0, 2 * math.pi)
    shear = math.tan(math.radians(rng.uniform(*P.slant_deg) * 0.5))   # the fonts have a slant of their own
    rotation = math.radians(rng.uniform(*P.rot_deg))
    c, s = math.cos(rotation), math.sin(rotation)
    step = rng.uniform(*P.step_px)
    noise = rng.uniform(*P.noise_px)
    out = []
    for p in strokes:
        x, y = p[:, 0], p[:, 1]
        y = y + amp * np.sin(2 * math.pi * x / wavelength + phase)
        x = x - shear * y
        q = np.stack([x * c - y * s, x * s + y * c], 1)
        q = resample(q, step * rng.uniform(0.85, 1.15))
        out.append(q + rng.normal(0, noise, q.shape))
    if not out:
        return []  # nothing drawable (the font rendered no ink for this text)
    allp = np.vstack(out)
    low, high = allp.min(0), allp.max(0)
    ox = rng.uniform(0, max(1.0, board[0] - (high - low)[0])) - low[0]
    oy = rng.uniform(0, max(1.0, board[1] - (high - low)[1])) - low[1]
    speed = xh * rng.uniform(0.010, 0.030)
    t = float(rng.integers(0, 2000))
    result = []
    previous_end = None
    for q in out:
        q = q + (ox, oy)
        if previous_end is not None:
            t += rng.uniform(40, 250) + np.linalg.norm(q[0] - previous_end) / (speed * 2)
        d = arc_length(q)
        ts = t + d / (speed * rng.uniform(0.8, 1.25))
        result.append({"x": [round(float(v), 2) for v in q[:, 0]],
                       "y": [round(float(v), 2) for v in q[:, 1]],
                       "t": [int(round(v)) for v in ts]})
        t = ts[-1]
        previous_end = q[-1]
    return result
