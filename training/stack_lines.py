#!/usr/bin/env python3
"""Two-line ink made by stacking one-line samples, to measure how a line finder separates lines.

Each output sample is two input samples (of one file, or of two with --second), the second
placed under the first with its top 1.2-1.6 line heights (--spacing) below the first's top (a
line height is the first sample's ink height, 5th to 95th percentile), left edges within half a
height of each other; the label is the two labels joined by a line break. `inkrender
--list-skipped` then counts the samples whose ink was cut into a different number of lines than
the label has.

With --second FILE2 --langs A,B, one line is a sample of IN (language A) and the other one of
FILE2 (language B), in an order drawn per sample: ink of two scripts, one per line, for
`"lang": "auto"`. Each such sample keeps its parts (`parts`: each line's language, label and
ink as stacked), so that `paired.py --lang parts` reads each line alone with its own model.

  python3 stack_lines.py IN.jsonl --n 400 --seed 7 -o OUT.jsonl
  python3 stack_lines.py KOR.jsonl --second LATIN.jsonl --langs kor,eng --n 400 --seed 7 -o OUT.jsonl
"""
import argparse
import json
import random

from compose_real import body_height, bounds


def stack(first, second, rng, spacing=(1.2, 1.6)):
    height = body_height(first["strokes"])
    x0a, top1, _, _ = bounds(first["strokes"])
    x0b, top2, _, _ = bounds(second["strokes"])
    scale = height / body_height(second["strokes"])
    dy = top1 + rng.uniform(*spacing) * height
    dx = x0a + rng.uniform(-0.5, 0.5) * height
    moved = [{"x": [round((x - x0b) * scale + dx, 2) for x in s["x"]],
              "y": [round((y - top2) * scale + dy, 2) for y in s["y"]]} for s in second["strokes"]]
    return [{"x": s["x"], "y": s["y"]} for s in first["strokes"]] + moved


def one_line(path):
    with open(path, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f if line.strip()]
    return [s for s in samples if "\n" not in s["text"] and s.get("strokes")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--spacing", default="1.2,1.6", help="the second line's top this many line heights (drawn between the two) below the first's")
    ap.add_argument("--second", help="the other line of each sample from this file (two scripts)")
    ap.add_argument("--langs", default="kor,eng", help="with --second: the languages of IN and of SECOND")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    samples = one_line(a.input)
    others = one_line(a.second) if a.second else None
    langs = a.langs.split(",")
    if others is not None and len(langs) != 2:
        ap.error("--langs takes two languages, IN's and SECOND's (e.g. kor,eng)")
    with open(a.out, "w", encoding="utf-8") as out:
        for i in range(a.n):
            if others is None:
                first, second = rng.sample(samples, 2)
            else:
                pair = [(rng.choice(samples), langs[0]), (rng.choice(others), langs[1])]
                if rng.random() < 0.5:
                    pair.reverse()
                (first, first_lang), (second, second_lang) = pair
            strokes = stack(first, second, rng, tuple(float(x) for x in a.spacing.split(",")))
            sample = {"id": "stack%d-%05d" % (a.seed, i), "text": first["text"] + "\n" + second["text"], "strokes": strokes}
            if others is not None:
                cut = len(first["strokes"])
                sample["parts"] = [{"lang": first_lang, "text": first["text"], "strokes": strokes[:cut]},
                                   {"lang": second_lang, "text": second["text"], "strokes": strokes[cut:]}]
            out.write(json.dumps(sample, separators=(",", ":"), ensure_ascii=False) + "\n")
    print("%d two-line samples from %s" % (a.n, a.input + (" and " + a.second if a.second else "")))


if __name__ == "__main__":
    main()
