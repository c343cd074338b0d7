#!/usr/bin/env python3
"""Text lines and numbers composed from real handwriting of one person.

Most of what the service reads is a line of several words, or a number; most of the real
corpus is single words and isolated characters. This composes both from real pen strokes.

lines    2-7 words of one writer (one UNIPEN session: same tablet, same scale), placed side by
         side with that person's own word spacing and baseline slope, measured on the person's
         text segments (the largest gaps between ink blobs of a segment are its word spaces,
         as many as its label has spaces); persons without text segments draw from everyone's.
numbers  prices, dates, times, phone numbers, codes, percentages, small sums, plain numbers,
         runs of digits written apart and lists of numbers from one person's isolated digits
         and symbols, on one slanted baseline or (a fifth of those of three or more words) on
         two or three rows. Those glyphs were written one per box, so their size says nothing
         about their height in a number: each glyph is normalised (digits and capitals to one
         height, each symbol to its usual size and place against the baseline) before it is
         placed, with the person's own letter spacing (sometimes wide apart) and a little
         jitter. With --crowd, a share of them is written as in one movement: glyphs narrow,
         touching or overlapping, some joined by a pen stroke, slashes and brackets sometimes
         far taller than the digits.
letters  1-4 words of a word list written with one person's isolated letters (most persons who
         wrote letters wrote no words): each letter normalised as the digits are, lower-case
         letters to their part of the line (x-height, ascender, descender) against the
         baseline, written apart or close as print is.
inword   1-4 words of a word list written with the letters one person wrote inside real words:
         the words whose strokes fall into exactly as many groups side by side (strokes that
         overlap in x are one group) as the word has letters, each group taken as its letter,
         of persons who print (at least half of their words, and 10, fall apart so; a tenth of
         the corpus's words; --print-share sets the share, --text-segments takes the words of
         text segments of letters too). Each letter keeps
         its size and height against its own word's baseline and x-height (measured on the
         word's body letters a c e m n o r s u v w x z, or on its capitals; instances far
         from the usual height or place of their letter dropped), and letters are set apart
         by gaps the same person left between letters of a word (up to the person's 90th
         percentile; word spaces wider than that).

  python3 compose_real.py lines IN.jsonl --n 8000 --seed 5 -o OUT.jsonl
  python3 compose_real.py numbers IN.jsonl --n 6000 --seed 5 -o OUT.jsonl
  python3 compose_real.py numbers IN.jsonl --n 200 --min-parts 3 -o OUT.jsonl   (runs, lists, sums)
  python3 compose_real.py letters IN.jsonl --words /usr/share/dict/american-english --n 6000 -o OUT.jsonl
  python3 compose_real.py inword IN.jsonl --words /usr/share/dict/american-english --n 6000 -o OUT.jsonl

Deterministic for the same input, n and seed. Time channels are dropped (the pieces were
written at unrelated times).
"""
import argparse
import collections
import itertools
import json
import random
import re
import statistics
import string

PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")


def points(strokes):
    return [(x, y) for s in strokes for x, y in zip(s["x"], s["y"])]


def bounds(strokes):
    xs = [x for s in strokes for x in s["x"]]
    ys = [y for s in strokes for y in s["y"]]
    return min(xs), min(ys), max(xs), max(ys)


def body_height(strokes):
    """Height of the bulk of the ink (5th to 95th percentile of y over points): ascenders and
    descenders count less than in the bounding box, the same measure for words and lines."""
    ys = sorted(y for s in strokes for y in s["y"])
    return max(ys[int(len(ys) * 0.95) - 1] - ys[int(len(ys) * 0.05)], 1e-6)


def median_y(strokes):
    ys = sorted(y for s in strokes for y in s["y"])
    return ys[len(ys) // 2]


def blobs(strokes):
    """Runs of strokes whose x extents overlap, left to right: (x0, x1, centre y)."""
    return [(x0, x1, median_y(ss)) for x0, x1, ss in x_groups(strokes)]


def x_groups(strokes):
    """The strokes in groups side by side, left to right: [x0, x1, strokes], strokes whose
    x-extents overlap in one group."""
    groups = []
    for s in sorted((s for s in strokes if s["x"]), key=lambda s: min(s["x"])):
        x0, x1 = min(s["x"]), max(s["x"])
        if groups and x0 <= groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], x1)
            groups[-1][2].append(s)
        else:
            groups.append([x0, x1, [s]])
    return groups


def spacing_of(text_segments):
    """Word gaps (in body heights) and baseline slopes of a person's one-line text segments."""
    gaps, slopes = [], []
    for r in text_segments:
        if r.get("lines_est", 1) != 1:
            continue
        spaces = r["text"].strip().count(" ")
        found = blobs(r["strokes"])
        if spaces == 0 or len(found) < spaces + 1:
            continue
        height = body_height(r["strokes"])
        between = sorted((found[i + 1][0] - found[i][1] for i in range(len(found) - 1)), reverse=True)
        gaps.extend(g / height for g in between[:spaces] if g > 0)
        xs = [(b[0] + b[1]) / 2 for b in found]
        ys = [b[2] for b in found]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        var = sum((x - mx) ** 2 for x in xs)
        if var > 0:
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var
            if abs(slope) < 0.2:
                slopes.append(slope)
    return gaps, slopes


def compose_line(words, gaps, slopes, rng):
    typical = sorted(body_height(w["strokes"]) for w in words)[len(words) // 2]
    slope = rng.choice(slopes) if slopes else rng.uniform(-0.03, 0.03)
    pen_x = 0.0
    strokes = []
    for word in words:
        x0, _, x1, _ = bounds(word["strokes"])
        cy = median_y(word["strokes"])
        dy = rng.uniform(-0.06, 0.06) * typical + slope * (pen_x + (x1 - x0) / 2)
        for s in word["strokes"]:
            strokes.append({"x": [round(x - x0 + pen_x, 2) for x in s["x"]],
                            "y": [round(y - cy + dy, 2) for y in s["y"]]})
        gap = rng.choice(gaps) if gaps else rng.uniform(0.4, 1.2)
        pen_x += (x1 - x0) + min(max(gap, 0.25), 2.5) * typical
    return strokes


def make_lines(records, n, seed, prefix):
    rng = random.Random(seed)
    words = collections.defaultdict(list)
    segments = collections.defaultdict(list)
    for r in records:
        text = r["text"].strip()
        if not r.get("strokes") or not set(text) <= PRINTABLE:
            continue
        if r["kind"] == "word" and text and " " not in text:
            words[r["writer"]].append(r)
        elif r["kind"] == "text":
            segments[r["person"]].append(r)
    spacing = {p: spacing_of(s) for p, s in sorted(segments.items())}
    everyone = ([g for gs, _ in spacing.values() for g in gs], [s for _, ss in spacing.values() for s in ss])
    writers = sorted(w for w in words if len(words[w]) >= 2)
    if not writers:
        return []
    # Writers weighted by the square root of their word count: many persons, not a few
    # prolific ones.
    weights = [len(words[w]) ** 0.5 for w in writers]
    out = []
    for i in range(n):
        group = words[rng.choices(writers, weights)[0]]
        chosen = rng.sample(group, min(len(group), rng.randint(2, 7)))
        gaps, slopes = spacing.get(chosen[0]["person"], ([], []))
        if len(gaps) < 3:
            gaps, slopes = everyone
        text = " ".join(w["text"].strip() for w in chosen)
        out.append({"id": "%s%d-%05d" % (prefix, seed, i), "text": text,
                    "strokes": compose_line(chosen, gaps, slopes, rng)})
    return out


# How an isolated glyph is sized and placed in a number, in digit heights H, baseline at 0 and
# y growing downward: (measure, size, centre y). measure "h" scales the glyph's height to
# size·H, "w" its width (flat marks), "m" its larger side (dots, small marks).
DIGIT = ("h", 1.0, -0.5)
GLYPHS = {
    ".": ("m", 0.11, -0.06), ",": ("h", 0.24, 0.0), "-": ("w", 0.42, -0.45), "+": ("m", 0.6, -0.45),
    "=": ("w", 0.55, -0.45), ":": ("h", 0.55, -0.3), "/": ("h", 1.1, -0.5), "(": ("h", 1.25, -0.45),
    ")": ("h", 1.25, -0.45), "$": ("h", 1.2, -0.5), "%": ("h", 1.0, -0.5), "#": ("h", 0.9, -0.45),
    "*": ("m", 0.45, -0.7),
}
for c in string.digits + string.ascii_uppercase:
    GLYPHS[c] = DIGIT
# Lower-case letters by the part of the line they fill: the body (x-height about 0.6 H), body
# and ascender, body and descender; i and j with their dot (without it, as body letters).
LOWER = {}
for c in "acemnorsuvwxz":
    LOWER[c] = ("h", 0.6, -0.3)
for c in "bdfhkl":
    LOWER[c] = ("h", 1.0, -0.5)
for c in "gpqy":
    LOWER[c] = ("h", 0.95, -0.125)
LOWER["t"] = ("h", 0.85, -0.425)
LOWER["i"] = ("h", 0.85, -0.425)
LOWER["j"] = ("h", 1.2, -0.25)
UNDOTTED = {"i": LOWER["a"], "j": LOWER["g"]}


# Marks a crowded neighbour could hide.
SMALL = set(".,-:")
# Signs that some people write far taller than their digits (the slashes of a date, the
# brackets of a phone number).
TALL = set("/()$")


def place(glyph, x, height, rng, squeeze=1.0, tall=1.0):
    """The glyph normalised to `height` with its left edge at x, its width times `squeeze` and,
    if it is a TALL sign, its size times `tall`: its strokes and its width."""
    c = glyph["text"]
    if c in UNDOTTED and len(glyph["strokes"]) == 1:
        measure, size, centre = UNDOTTED[c]
    else:
        measure, size, centre = GLYPHS.get(c) or LOWER[c]
    if c in TALL:
        size *= tall
    x0, y0, x1, y1 = bounds(glyph["strokes"])
    w, h = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
    extent = {"h": h, "w": w, "m": max(w, h)}[measure]
    scale = size * height * rng.uniform(0.92, 1.08) / extent
    cy = (centre + rng.uniform(-0.04, 0.04)) * height
    strokes = [{"x": [round((px - x0) * scale * squeeze + x, 2) for px in s["x"]],
                "y": [round((py - (y0 + y1) / 2) * scale + cy, 2) for py in s["y"]]}
               for s in glyph["strokes"]]
    return strokes, w * scale * squeeze


def pen_travel(stroke, next_stroke):
    """How far the pen moves from the end of `stroke` to the start of `next_stroke` (x plus y)."""
    return abs(stroke["x"][-1] - next_stroke["x"][0]) + abs(stroke["y"][-1] - next_stroke["y"][0])


def number_text(rng):
    d = lambda k: "".join(rng.choice(string.digits) for _ in range(k))  # noqa: E731
    n = lambda: str(rng.choice([rng.randint(0, 99), rng.randint(0, 999), rng.randint(0, 99999)]))  # noqa: E731
    kind = rng.choices(range(15), [10, 8, 6, 5, 7, 5, 6, 4, 4, 3, 4, 2, 3, 3, 3])[0]
    if kind == 13:
        # A run of digits written apart, as in a form or a drill: "0 1 2 3 4 5 6 7 8 9".
        if rng.random() < 0.4:
            start = rng.randint(0, 9)
            return " ".join(str((start + i) % 10) for i in range(rng.randint(5, 20)))
        return " ".join(rng.choice(string.digits) for _ in range(rng.randint(4, 16)))
    if kind == 14:
        # A list of numbers, as in a column of figures written across.
        return " ".join(rng.choice([n(), "%s.%s" % (n(), d(2))]) for _ in range(rng.randint(2, 5)))
    if kind == 0:
        return n()
    if kind == 1:
        return "%s.%s" % (n(), d(rng.choice([1, 2, 2, 3])))
    if kind == 2:
        amount = rng.choice(["%s.%s" % (n(), d(2)), n()])
        return rng.choice(["$" + amount, amount + "$"])
    if kind == 3:
        return "%s%%" % rng.choice([n(), "%s.%s" % (rng.randint(0, 99), d(1))])
    if kind == 4:
        sep = rng.choice("/-.")
        return sep.join([str(rng.randint(1, 12)).zfill(rng.choice([1, 2])), str(rng.randint(1, 31)).zfill(rng.choice([1, 2])),
                         rng.choice([d(2), "19" + d(2), "20" + d(2)])])
    if kind == 5:
        return "%d:%02d" % (rng.randint(0, 23), rng.randint(0, 59))
    if kind == 6:
        return rng.choice(["%s-%s-%s" % (d(3), d(3), d(4)), "%s-%s" % (d(3), d(4)), "(%s) %s-%s" % (d(3), d(3), d(4)),
                           "%s-%s-%s-%s" % (d(1), d(3), d(3), d(4)), "%s %s %s" % (d(3), d(3), d(4))])
    if kind == 7:
        return "%s-%s" % (d(5), d(4))
    if kind == 8:
        op = rng.choice("+-*/=")
        a, b = rng.randint(0, 999), rng.randint(0, 999)
        return rng.choice(["%d %s %d" % (a, op, b), "%d%s%d" % (a, op, b), "%d %s %d = %s" % (a, op, b, n())])
    if kind == 9:
        return "%s$ + %s%% = %s.%s" % (n(), n(), n(), d(2))
    if kind == 10:
        return d(rng.randint(5, 10))
    if kind == 11:
        return "#%s" % n() if rng.random() < 0.5 else "%s*" % n()
    letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(1, 3)))
    return rng.choice(["%s%s" % (letters, d(rng.randint(1, 4))), "%s-%s" % (letters, d(rng.randint(2, 5))),
                       "%s%s" % (d(rng.randint(1, 3)), letters)])


def make_numbers(records, n, seed, prefix, min_parts=1, crowd=0.0):
    rng = random.Random(seed)
    glyphs = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in records:
        if r["kind"] in ("char", "digit") and r["text"] in GLYPHS and r.get("strokes"):
            glyphs[r["person"]][r["text"]].append(r)
    group_of = {r["person"]: r["writerGroup"] for r in records}
    by_group = collections.defaultdict(lambda: collections.defaultdict(list))
    for person, inventory in glyphs.items():
        for c, samples in inventory.items():
            by_group[group_of[person]][c].extend(samples)
    persons = sorted(p for p in glyphs if sum(c in glyphs[p] for c in string.digits) >= 8)
    out = []
    while persons and len(out) < n:
        person = rng.choice(persons)
        text = number_text(rng)
        if text.count(" ") + 1 < min_parts:
            continue
        own, shared = glyphs[person], by_group[group_of[person]]
        if any(c != " " and not (own.get(c) or shared.get(c)) for c in text):
            continue
        height = 100.0
        squeeze, join, tall = 1.0, 0.0, 1.0
        crowded = bool(crowd) and rng.random() < crowd
        if crowded:
            # Written in one movement: glyphs narrower and closer, touching or overlapping, some
            # joined by the pen, and (half of them) slashes and brackets far taller than the
            # digits, as a collection the corpus holds out wrote its dates and phone numbers.
            # Ink width per character over the ink's body height, median: 0.62 (composed
            # otherwise 0.83, that collection's real numbers 0.75).
            squeeze = rng.uniform(0.75, 1.05)
            letter_gap = rng.uniform(-0.04, 0.15)
            space = max(rng.uniform(0.3, 0.6), letter_gap + rng.uniform(0.3, 0.5))
            join = rng.choice([0.0, 0.3, 0.7])
            tall = rng.choice([1.0, rng.uniform(1.2, 1.9)])
        else:
            # Most numbers are written with the person's usual letter spacing; some glyph by
            # glyph, far apart, as in boxes.
            letter_gap = rng.uniform(0.1, 0.3) if rng.random() < 0.85 else rng.uniform(0.35, 0.8)
            # A space stays wider than the gaps between glyphs, or no reader could tell them apart.
            space = max(rng.uniform(0.45, 0.9), letter_gap + rng.uniform(0.4, 0.7))
        slope = rng.uniform(-0.04, 0.04)
        rows = layout_rows(text, rng)
        strokes = []
        for row, words in enumerate(rows):
            pen_x = rng.uniform(-0.3, 0.6) * height if row else 0.0
            top = row * rng.uniform(1.5, 2.1) * height
            joinable = False
            line = " ".join(words)
            for i, c in enumerate(line):
                if c == " ":
                    pen_x += (space + rng.uniform(-0.1, 0.1)) * height
                    joinable = False
                    continue
                placed, width = place(rng.choice(own.get(c) or shared[c]), pen_x, height, rng, squeeze, tall)
                placed = [{"x": s["x"], "y": [round(y + top + slope * x, 2) for x, y in zip(s["x"], s["y"])]}
                          for s in placed]
                if join and joinable and placed and rng.random() < join and \
                        pen_travel(strokes[-1], placed[0]) < 0.7 * height:
                    # The pen stays down from the end of the last glyph to the start of this one
                    # (when it is near).
                    last = strokes.pop()
                    placed[0] = {"x": last["x"] + placed[0]["x"], "y": last["y"] + placed[0]["y"]}
                strokes.extend(placed)
                joinable = bool(placed)
                gap = letter_gap + rng.uniform(-0.05, 0.08)
                if crowded and (c in SMALL or line[i + 1:i + 2] in SMALL):
                    # A small mark stays visible next to its neighbours, however crowded.
                    gap = max(gap, 0.08)
                pen_x += width + gap * height
        out.append({"id": "%s%d-%05d" % (prefix, seed, len(out)), "text": "\n".join(" ".join(r) for r in rows),
                    "strokes": strokes})
    return out


def alphabet_cases(inventory, least):
    """The cases a person's letters can write a word in: lower case and capitalised when the
    person wrote at least `least` of the lower-case letters, capitals when as many capitals."""
    lower = sum(c in inventory for c in string.ascii_lowercase) >= least
    upper = sum(c in inventory for c in string.ascii_uppercase) >= least
    return [case for case, ok in (("lower", lower), ("title", lower and upper), ("upper", upper)) if ok]


def persons_words(rng, letters, vocabulary, least, tries):
    """Endless (person, text): a person with most of one alphabet (`alphabet_cases`), and one to
    four words of `vocabulary` in a case the person's letters allow, each spelled only with
    letters that person wrote (one word, one hand; `tries` draws per word). Ends when no person's
    letters spell any word of the list."""
    persons = sorted(p for p, inventory in letters.items() if alphabet_cases(inventory, least))
    weight = {"lower": 13, "title": 4, "upper": 3}
    misses = 0
    while persons and vocabulary and misses <= 10000:
        person = rng.choice(persons)
        own = letters[person]
        allowed = alphabet_cases(own, least)
        words = []
        for _ in range(rng.choices([1, 2, 3, 4], [5, 2, 2, 1])[0]):
            case = rng.choices(allowed, [weight[c] for c in allowed])[0]
            for _ in range(tries):
                word = rng.choice(vocabulary)
                word = word.upper() if case == "upper" else word.capitalize() if case == "title" else word
                if all(c in own for c in word):
                    words.append(word)
                    break
        if not words:
            misses += 1
            continue
        misses = 0
        yield person, " ".join(words)


def make_letter_words(records, vocabulary, n, seed, prefix):
    rng = random.Random(seed)
    letters = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in records:
        if r["kind"] == "char" and r["text"] in string.ascii_letters and r.get("strokes"):
            letters[r["person"]][r["text"]].append(r)
    out = []
    for person, text in persons_words(rng, letters, vocabulary, least=20, tries=20):
        if len(out) >= n:
            break
        own = letters[person]
        height = 100.0
        # Print written letter by letter: close, or apart as in boxes.
        letter_gap = rng.uniform(0.04, 0.2) if rng.random() < 0.8 else rng.uniform(0.25, 0.5)
        space = max(rng.uniform(0.45, 0.9), letter_gap + rng.uniform(0.35, 0.6))
        slope = rng.uniform(-0.04, 0.04)
        pen_x, strokes = 0.0, []
        for c in text:
            if c == " ":
                pen_x += (space + rng.uniform(-0.1, 0.1)) * height
                continue
            placed, width = place(rng.choice(own[c]), pen_x, height, rng)
            strokes.extend({"x": s["x"], "y": [round(y + slope * x, 2) for x, y in zip(s["x"], s["y"])]} for s in placed)
            pen_x += width + (letter_gap + rng.uniform(-0.04, 0.06)) * height
        out.append({"id": "%s%d-%05d" % (prefix, seed, len(out)), "text": text, "strokes": strokes})
    return out


BODY = set("acemnorsuvwxz")
CAPITALS = set(string.ascii_uppercase) - set("JQ")


def median(values):
    return statistics.median(values)


def segment_words(r):
    """A one-line text segment of letters and spaces as its words, [(word, groups)], or None: its
    strokes must fall into as many groups side by side as it has letters, and the widest gaps
    between groups, as many as it has spaces, must be where its words meet (two words whose
    letters merge in one and split in the other match the count, not the gaps). Words of one
    letter are left out."""
    words = r["text"].split()
    groups = x_groups(r["strokes"])
    if len(groups) != sum(map(len, words)):
        return None
    gaps = sorted(((b[0] - a[1], i) for i, (a, b) in enumerate(zip(groups, groups[1:]))), reverse=True)
    cuts = sorted(i for _, i in gaps[:len(words) - 1])
    if cuts != [n - 1 for n in itertools.accumulate(len(w) for w in words[:-1])]:
        return None
    out, at = [], 0
    for w in words:
        out.append((w, groups[at:at + len(w)]))
        at += len(w)
    return [(w, g) for w, g in out if len(w) >= 2]


def stroke_key(person, stroke):
    """The same pen stroke stored twice (UNIPEN gives a text segment's ink as words too)."""
    return person, tuple(stroke["x"][:4]), tuple(stroke["y"][:4]), len(stroke["x"])


def inword_letters(records, print_share=0.5, text_segments=False):
    """Per person, the letters written inside real words as {letter: [strokes, ...]} (baseline at
    y 0, line height 100: x-height 60, as `LOWER` has it) and the gaps between a word's
    letters in line heights. With `text_segments`, one-line text segments of letters count too:
    each as one written word, printed when `segment_words` splits it, its words' letters taken
    unless the same strokes are a word record already."""
    letters = collections.defaultdict(lambda: collections.defaultdict(list))
    gaps = collections.defaultdict(list)
    words = [(r, r["text"].strip()) for r in records
             if r["kind"] == "word" and re.fullmatch(r"[A-Za-z]{2,}", r["text"].strip()) and r.get("strokes")]
    split = [(r, text, x_groups(r["strokes"])) for r, text in words]
    # Persons who print: at least `print_share` of their words (and at least 10) fall apart into
    # their letters. In a joined hand the count matches by chance, letters merged and split alike.
    written, printed = collections.Counter(), collections.Counter()
    for r, text, groups in split:
        written[r["person"]] += 1
        printed[r["person"]] += len(groups) == len(text)
    if text_segments:
        known = {stroke_key(r["person"], s) for r, _, _ in split for s in r["strokes"]}
        for r in records:
            if (r["kind"] != "text" or not r.get("strokes") or r.get("lines_est", 1) != 1
                    or not re.fullmatch(r"[A-Za-z]+( [A-Za-z]+)*", r["text"].strip())):
                continue
            pieces = segment_words(r)
            written[r["person"]] += 1
            printed[r["person"]] += pieces is not None
            split.extend((r, w, g) for w, g in pieces or []
                         if not any(stroke_key(r["person"], st) in known for group in g for st in group[2]))
    printers = {p for p in written if written[p] >= 10 and printed[p] >= print_share * written[p]}
    for r, text, groups in split:
        if r["person"] not in printers or len(groups) != len(text):
            continue
        boxes = [bounds(g[2]) for g in groups]
        body = [b for c, b in zip(text, boxes) if c in BODY]
        caps = [b for c, b in zip(text, boxes) if c in CAPITALS]
        if body:
            height = median(b[3] - b[1] for b in body) / 0.6
            baseline = median(b[3] for b in body)
        elif caps:
            height = median(b[3] - b[1] for b in caps)
            baseline = median(b[3] for b in caps)
        else:
            continue
        if height <= 0:
            continue
        scale = 100.0 / height
        for c, g, b in zip(text, groups, boxes):
            letters[r["person"]][c].append([{"x": [round((x - b[0]) * scale, 2) for x in s["x"]],
                                             "y": [round((y - baseline) * scale, 2) for y in s["y"]]} for s in g[2]])
        gaps[r["person"]].extend((b[0] - a[2]) * scale / 100.0 for a, b in zip(boxes, boxes[1:]))
    # A group taken for the wrong letter (a joined pair and a split letter in one word) is mostly
    # of another height or place: an instance whose height or bottom is far from the median of
    # the person's instances of that letter (of everyone's, when the person has fewer than five)
    # is dropped.
    def extent(glyph):
        ys = [y for s in glyph for y in s["y"]]
        return min(ys), max(ys)

    everyone = collections.defaultdict(list)
    for own in letters.values():
        for c, instances in own.items():
            everyone[c].extend(extent(g) for g in instances)
    typical = {c: (median(b - a for a, b in e), median(b for _, b in e)) for c, e in everyone.items()}
    for own in letters.values():
        for c, instances in list(own.items()):
            extents = [extent(g) for g in instances]
            height, bottom = ((median(b - a for a, b in extents), median(b for _, b in extents))
                              if len(instances) >= 5 else typical[c])
            kept = [g for g, (a, b) in zip(instances, extents)
                    if 0.65 * height <= b - a <= 1.5 * height and abs(b - bottom) <= 25]
            if kept:
                own[c] = kept
            else:
                del own[c]
    return letters, gaps


def make_inword_words(records, vocabulary, n, seed, prefix, print_share=0.5, text_segments=False):
    rng = random.Random(seed)
    letters, gaps = inword_letters(records, print_share, text_segments)
    # Per person, letter gaps up to the 90th percentile (the widest usual one, and those gaps).
    usual = {}
    for person, own_gaps in gaps.items():
        widest = sorted(own_gaps)[int(0.9 * (len(own_gaps) - 1))]
        usual[person] = widest, [g for g in own_gaps if g <= widest]
    out = []
    for person, text in persons_words(rng, letters, vocabulary, least=16, tries=40):
        if len(out) >= n:
            break
        own = letters[person]
        widest, own_gaps = usual[person]
        # A word space: wider than the person's widest usual letter gap.
        space = max(rng.uniform(0.45, 0.9), widest + rng.uniform(0.2, 0.4))
        slope = rng.uniform(-0.04, 0.04)
        size = rng.uniform(0.9, 1.1)
        pen_x, strokes, first = 0.0, [], True
        for c in text:
            if c == " ":
                pen_x += space * 100.0
                first = True
                continue
            if not first:
                pen_x += rng.choice(own_gaps) * 100.0
            first = False
            glyph = rng.choice(own[c])
            jitter = rng.uniform(0.94, 1.06)
            width = max(x for s in glyph for x in s["x"]) * jitter
            strokes.extend({"x": [round((pen_x + x * jitter) * size, 2) for x in s["x"]],
                            "y": [round((y * jitter + slope * (pen_x + x * jitter)) * size, 2) for x, y in zip(s["x"], s["y"])]}
                           for s in glyph)
            pen_x += width
        out.append({"id": "%s%d-%05d" % (prefix, seed, len(out)), "text": text, "strokes": strokes})
    return out


def layout_rows(text, rng):
    """The words of `text` in one row, or (a fifth of those of three or more words) in two or
    three rows written one under the other, read top to bottom (the label has a line break
    between rows, as the service answers)."""
    words = text.split(" ")
    if len(words) < 3 or rng.random() >= 0.2:
        return [words]
    count = 3 if len(words) >= 9 and rng.random() < 0.4 else 2
    cuts = sorted(rng.sample(range(1, len(words)), count - 1))
    return [words[a:b] for a, b in zip([0] + cuts, cuts + [len(words)])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["lines", "numbers", "letters", "inword"])
    ap.add_argument("input")
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--prefix", default=None)
    ap.add_argument("--min-parts", type=int, default=1, help="numbers: only those of at least this many words")
    ap.add_argument("--crowd", type=float, default=0.0,
                    help="numbers: the share written in one movement (narrow glyphs, touching, some joined)")
    ap.add_argument("--words", help="letters, inword: the word list to write (one word per line; words of 2-12 letters a-z kept)")
    ap.add_argument("--print-share", type=float, default=0.5,
                    help="inword: a person prints when at least this share of their words (a text segment counts as one) fall apart into their letters")
    ap.add_argument("--text-segments", action="store_true",
                    help="inword: take letters from the words of text segments too")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    if a.what == "lines":
        samples = make_lines(records, a.n, a.seed, a.prefix or "line")
    elif a.what in ("letters", "inword"):
        if not a.words:
            ap.error("%s needs --words" % a.what)
        with open(a.words, encoding="utf-8") as f:
            vocabulary = sorted({w.strip() for w in f if re.fullmatch(r"[a-z]{2,12}", w.strip())})
        if a.what == "letters":
            samples = make_letter_words(records, vocabulary, a.n, a.seed, a.prefix or a.what)
        else:
            samples = make_inword_words(records, vocabulary, a.n, a.seed, a.prefix or a.what,
                                        a.print_share, a.text_segments)
    else:
        samples = make_numbers(records, a.n, a.seed, a.prefix or "number", a.min_parts, a.crowd)
    with open(a.out, "w", encoding="utf-8") as out:
        for s in samples:
            out.write(json.dumps(s, separators=(",", ":")) + "\n")
    print("%s: %d composed from %s" % (a.what, len(samples), a.input))


if __name__ == "__main__":
    main()
