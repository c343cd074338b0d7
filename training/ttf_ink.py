"""Pen ink from handwriting-style TrueType/OpenType fonts.

A text line is drawn with the font (Pillow), thinned to a one-pixel centre line (Zhang-Suen),
and the centre line is traced into pen strokes: runs of skeleton pixels between line ends and
crossings, ordered left to right. The strokes then get the same kind of variation inkgen gives
its Hershey ink (slant, rotation, baseline wobble, resampling, jitter, timing) and are placed on
a board, so the service draws them with its own pen exactly as it draws a person's ink.

Used by gen_ink.py for the fonts listed under "ttf_fonts" in mix.json.
"""
import functools
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

RENDER_SIZE = 72            # font size in pixels for the raster that is thinned
_fonts = {}
_missing = {}


def _font(path):
    if path not in _fonts:
        _fonts[path] = ImageFont.truetype(path, RENDER_SIZE)
    return _fonts[path]


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
        m = _mask(font, ch)
        if m.size == 0 or not m.any() or m.tobytes() == _missing[path]:
            return False
    return True


@functools.lru_cache(maxsize=None)
def x_height(path):
    """Height of the font's `x` in raster pixels."""
    box = _font(path).getbbox("x")
    return max(4.0, float(box[3] - box[1]))


def raster(path, line):
    """The line drawn in black on white, as a 0/1 array, and the baseline row."""
    font = _font(path)
    left, top, right, bottom = font.getbbox(line)
    pad = 6
    width, height = right - left + 2 * pad, bottom - top + 2 * pad
    image = Image.new("L", (max(1, width), max(1, height)), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), line, font=font, fill=255)
    ascent, _ = font.getmetrics()
    return (np.asarray(image) > 127).astype(np.uint8), pad - top + ascent


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


def smooth(points):
    if len(points) < 3:
        return points
    padded = np.vstack([points[:1], points, points[-1:]])
    return (padded[:-2] + 2 * padded[1:-1] + padded[2:]) / 4


def resample(poly, step):
    """Points every `step` along the polyline (a dot stays a two-point stroke)."""
    if len(poly) == 1:
        return poly.copy()
    seg = np.linalg.norm(np.diff(poly, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] < 1e-9:
        return np.vstack([poly[:1], poly[:1]])
    n = max(1, int(math.ceil(s[-1] / step)))
    ts = np.linspace(0.0, s[-1], n + 1)
    return np.stack([np.interp(ts, s, poly[:, 0]), np.interp(ts, s, poly[:, 1])], 1)


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


def make_sample(text, path, rng, P, board=(2000, 1500)):
    """Ink for `text` (lines separated by newlines) in the font at `path`, varied with the ranges
    of an inkgen.Params, in inkgen's stroke format ({"x", "y", "t"} lists)."""
    k = rng.uniform(*P.xheight) / x_height(path)   # raster pixels -> board units
    line_spacing = rng.uniform(1.1, 1.4) * RENDER_SIZE
    strokes = []
    for index, line in enumerate(text.split("\n")):
        indent = rng.normal(0, 0.3) * x_height(path)
        drift = math.radians(rng.normal(0, 1.0))
        for s in line_strokes(path, line):
            x, y = s[:, 0] + indent, s[:, 1]
            strokes.append(np.stack([x * math.cos(drift) - y * math.sin(drift),
                                     x * math.sin(drift) + y * math.cos(drift) + index * line_spacing], 1) * k)
    xh = x_height(path) * k
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
        d = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(q, axis=0), axis=1))])
        ts = t + d / (speed * rng.uniform(0.8, 1.25))
        result.append({"x": [round(float(v), 2) for v in q[:, 0]],
                       "y": [round(float(v), 2) for v in q[:, 1]],
                       "t": [int(round(v)) for v in ts]})
        t = ts[-1]
        previous_end = q[-1]
    return result
