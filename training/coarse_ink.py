#!/usr/bin/env python3
"""Held-out ink as a coarse digitiser would report it:
  --grid CELLS   every point snapped to a grid of the sample's ink height / CELLS (the 5th to
                 95th percentile of y), repeated points dropped (a low-resolution tablet);
  --every N      every Nth point of each stroke kept, and its last (a slow sampling rate).

The training corpus has neither (its coarsest collection has a grid of about 1/34 of a word's
height at the 10th percentile), but users' devices may: this makes held-out ink to measure what
they cost and what `--coarse-ink smooth` gets back.

  python3 training/coarse_ink.py WORK/ink/dev-persons-words.jsonl --grid 8 --limit 200 -o /tmp/words-g8.jsonl
  SETS=/tmp/words-g8.jsonl training/evaluate.sh eng
  SERVER_ARGS="--coarse-ink keep" SETS=/tmp/words-g8.jsonl TAG=-keep training/evaluate.sh eng
"""
import argparse
import json

from compose_real import body_height


def snapped(strokes, cells):
    step = body_height(strokes) / cells
    out = []
    for s in strokes:
        points = []
        for x, y in zip(s["x"], s["y"]):
            p = (round(x / step) * step, round(y / step) * step)
            if not points or points[-1] != p:
                points.append(p)
        out.append({"x": [p[0] for p in points], "y": [p[1] for p in points]})
    return out


def thinned(strokes, every):
    out = []
    for s in strokes:
        keep = list(range(0, len(s["x"]), every))
        if keep[-1] != len(s["x"]) - 1:
            keep.append(len(s["x"]) - 1)
        out.append({"x": [s["x"][i] for i in keep], "y": [s["y"][i] for i in keep]})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--grid", type=float, help="grid steps per ink height")
    how.add_argument("--every", type=int, help="keep every Nth point")
    ap.add_argument("--limit", type=int, default=0, help="first N samples only")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f, open(a.out, "w", encoding="utf-8") as out:
        for n, line in enumerate(f):
            if a.limit and n >= a.limit:
                break
            r = json.loads(line)
            strokes = snapped(r["strokes"], a.grid) if a.grid else thinned(r["strokes"], a.every)
            out.write(json.dumps({"id": r["id"], "text": r["text"], "strokes": strokes}) + "\n")


if __name__ == "__main__":
    main()
