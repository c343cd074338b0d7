#!/usr/bin/env python3
"""Two-line ink made by stacking one-line samples, to measure how a line finder separates lines.

Each output sample is two input samples of one file, the second placed under the first with its
top 1.2-1.6 line heights below the first's top (a line height is the first sample's ink height,
5th to 95th percentile), left edges within half a height of each other; the label is the two
labels joined by a line break. `inkrender --list-skipped` then counts the samples whose ink was
cut into a different number of lines than the label has.

  python3 stack_lines.py IN.jsonl --n 400 --seed 7 -o OUT.jsonl
"""
import argparse
import json
import random

from compose_real import body_height, bounds


def stack(first, second, rng):
    height = body_height(first["strokes"])
    x0a, top1, _, _ = bounds(first["strokes"])
    x0b, top2, _, _ = bounds(second["strokes"])
    scale = height / body_height(second["strokes"])
    dy = top1 + rng.uniform(1.2, 1.6) * height
    dx = x0a + rng.uniform(-0.5, 0.5) * height
    moved = [{"x": [round((x - x0b) * scale + dx, 2) for x in s["x"]],
              "y": [round((y - top2) * scale + dy, 2) for y in s["y"]]} for s in second["strokes"]]
    return [{"x": s["x"], "y": s["y"]} for s in first["strokes"]] + moved


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with open(a.input, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f if line.strip()]
    samples = [s for s in samples if "\n" not in s["text"] and s.get("strokes")]
    with open(a.out, "w", encoding="utf-8") as out:
        for i in range(a.n):
            first, second = rng.sample(samples, 2)
            out.write(json.dumps({"id": "stack%d-%05d" % (a.seed, i), "text": first["text"] + "\n" + second["text"],
                                  "strokes": stack(first, second, rng)}, separators=(",", ":"), ensure_ascii=False) + "\n")
    print("%d two-line samples from %s" % (a.n, a.input))


if __name__ == "__main__":
    main()
