#!/usr/bin/env python3
"""Numbers with strokes far taller than their digits, drawn in: a lever measured before it is built.

  /usr/bin/python3 training/tall_strokes.py [--tall 1.35] [--to 1.15] < IN.jsonl > OUT.jsonl

Some collections draw the slashes of dates and the brackets of phone numbers up to three
times as tall as their digits. A line image is scaled to its whole ink height, so their digits
come out a third of the height the network reads best. Here, in each sample of two or more
strokes, the digits' height is the median height of the strokes at least 0.4 of the median
stroke, and every stroke taller than `--tall` times it is squeezed vertically to `--to` times
it, about the vertical centre of the other strokes (the digits' band). Stroke order, x and t
are kept. (Until the service's `--tall-marks` was built, the digits were the strokes at least
0.4 of the tallest: a mark 2.5 times as tall as the digits left none, and nothing was
squeezed.) The service does the same per line (Sources/OCR/Pipeline/TallMarks.swift).
Read the output and the input through the same server (`paired.py --b-ink DIR`) to see what
the service would gain by doing this before it draws a number.
"""
import argparse
import json
import statistics
import sys


def squeeze(sample, tall, to):
    """The sample with its tall strokes squeezed; the number of strokes changed."""
    strokes = [s for s in sample["strokes"] if s["y"]]
    if len(strokes) < 2:
        return 0
    heights = [max(s["y"]) - min(s["y"]) for s in strokes]
    typical = statistics.median(heights)
    if typical <= 0:
        return 0
    digit = statistics.median([h for h in heights if h >= 0.4 * typical])
    band = [s for s, h in zip(strokes, heights) if 0.4 * typical <= h <= tall * digit]
    if not band:
        return 0
    centre = statistics.median([(max(s["y"]) + min(s["y"])) / 2 for s in band])
    changed = 0
    for stroke, height in zip(strokes, heights):
        if height > tall * digit:
            k = to * digit / height
            stroke["y"] = [centre + (y - centre) * k for y in stroke["y"]]
            changed += 1
    return changed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tall", type=float, default=1.35, help="a stroke this many digit heights tall is squeezed")
    ap.add_argument("--to", type=float, default=1.15, help="to this many digit heights")
    args = ap.parse_args()
    changed = samples = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        sample = json.loads(line)
        n = squeeze(sample, args.tall, args.to)
        changed += n
        samples += n > 0
        print(json.dumps(sample))
    print(f"{changed} strokes squeezed in {samples} samples", file=sys.stderr)


if __name__ == "__main__":
    main()
