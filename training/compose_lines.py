#!/usr/bin/env python3
"""Text lines of real handwriting composed from single written words.

The real training ink is almost all single words; the service also reads whole lines. This
places 2-6 words of one writer (one UNIPEN directory: same tablet, same hand) side by side,
at the writer's own scale, vertically centred on their ink, with gaps of 0.25-0.8 of the
typical word height, so the model sees real pen strokes with word spaces. Time channels are
dropped (the words were written at unrelated times).

  python3 compose_lines.py IN.jsonl --n 4000 --seed 5 -o OUT.jsonl
"""
import argparse
import collections
import json
import os
import random
import string

PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")


def writer(record):
    return os.path.dirname(record.get("source", "").split("data/", 1)[-1].split(" ", 1)[0])


def bounds(strokes):
    xs = [x for s in strokes for x in s["x"]]
    ys = [y for s in strokes for y in s["y"]]
    return min(xs), min(ys), max(xs), max(ys)


def centre_y(strokes):
    ys = sorted(y for s in strokes for y in s["y"])
    return ys[len(ys) // 2]


def compose(words, rng):
    heights = sorted(bounds(w["strokes"])[3] - bounds(w["strokes"])[1] for w in words)
    typical = max(heights[len(heights) // 2], 1e-6)
    pen_x = 0.0
    strokes = []
    for word in words:
        x0, _, x1, _ = bounds(word["strokes"])
        cy = centre_y(word["strokes"])
        dy = rng.uniform(-0.08, 0.08) * typical
        for s in word["strokes"]:
            strokes.append({"x": [round(x - x0 + pen_x, 2) for x in s["x"]],
                            "y": [round(y - cy + dy, 2) for y in s["y"]]})
        pen_x += (x1 - x0) + rng.uniform(0.25, 0.8) * typical
    return strokes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--prefix", default="line")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    groups = collections.defaultdict(list)
    with open(a.input, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            text = r["text"].strip()
            if text and " " not in text and set(text) <= PRINTABLE and r.get("strokes"):
                groups[writer(r)].append(r)
    names = sorted(g for g in groups if len(groups[g]) >= 2)
    weights = [len(groups[g]) for g in names]
    with open(a.out, "w", encoding="utf-8") as out:
        for i in range(a.n):
            group = groups[rng.choices(names, weights)[0]]
            words = rng.sample(group, min(len(group), rng.randint(2, 6)))
            record = {"id": "%s%d-%05d" % (a.prefix, a.seed, i), "text": " ".join(w["text"].strip() for w in words),
                      "strokes": compose(words, rng)}
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
