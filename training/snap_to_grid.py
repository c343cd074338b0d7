#!/usr/bin/env python3
"""Held-out ink as a coarse digitiser would report it: every point snapped to a grid of the
sample's ink height / CELLS (the 5th to 95th percentile of y), repeated points dropped.

The training corpus has no low-resolution tablet (its coarsest collection has a grid of about
1/34 of a word's height at the 10th percentile), but users' devices may: this makes held-out
ink to measure what a coarse grid costs and what `--coarse-ink smooth` gets back.

  python3 training/snap_to_grid.py WORK/ink/dev-persons-words.jsonl --cells 8 --limit 200 -o /tmp/words-q8.jsonl
  SETS=/tmp/words-q8.jsonl training/evaluate.sh eng
  SERVER_ARGS="--coarse-ink keep" SETS=/tmp/words-q8.jsonl TAG=-keep training/evaluate.sh eng
"""
import argparse
import json


def ink_height(strokes):
    ys = sorted(y for s in strokes for y in s["y"])
    return max(ys[int(len(ys) * 0.95) - 1] - ys[int(len(ys) * 0.05)], 1e-6)


def snapped(strokes, cells):
    step = ink_height(strokes) / cells
    out = []
    for s in strokes:
        points = []
        for x, y in zip(s["x"], s["y"]):
            p = (round(x / step) * step, round(y / step) * step)
            if not points or points[-1] != p:
                points.append(p)
        out.append({"x": [p[0] for p in points], "y": [p[1] for p in points]})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--cells", type=float, required=True, help="grid steps per ink height")
    ap.add_argument("--limit", type=int, default=0, help="first N samples only")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f, open(a.out, "w", encoding="utf-8") as out:
        for n, line in enumerate(f):
            if a.limit and n >= a.limit:
                break
            r = json.loads(line)
            out.write(json.dumps({"id": r["id"], "text": r["text"], "strokes": snapped(r["strokes"], a.cells)}) + "\n")


if __name__ == "__main__":
    main()
