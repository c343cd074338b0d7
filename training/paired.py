#!/usr/bin/env python3
"""Two models read the same held-out ink; is the difference more than the noise of the sample?

  /usr/bin/python3 training/paired.py --a URL --b URL FILE.jsonl[:CHARSET] ...
  /usr/bin/python3 training/paired.py --a URL --b URL --b-ink DIR FILE.jsonl[:CHARSET] ...
  /usr/bin/python3 training/paired.py --a URL --b URL --lang kor-a --b-lang kor-b FILE.jsonl ...
  /usr/bin/python3 training/paired.py --a URL --b URL --lang eng --b-lang auto KOR.jsonl@kor LATIN.jsonl ...

Each sample is read by the server at --a and by the one at --b (tools/eval.py's request and
scoring, `lang` eng by default), and its edit distance kept for both. Printed per file and for
all files together: CER of a and b (weighted by characters), their difference b − a, and a 95 %
interval of that difference from a paired bootstrap (samples drawn with replacement, the same
draw for both models, 2,000 times, seeded). An interval that holds 0 says the sample cannot tell
the models apart. `--lang parts` (or `--b-lang parts`) reads each line of a sample of
`stack_lines.py --second` alone with its own language and joins the texts: what reading each line
with its right model gives, to compare `auto` with. `FILE@LANG` reads that file with LANG
where --lang would (a sample's own model, when files of several languages are compared with
`auto` in one interval). With --b-ink, b reads DIR's file of the same name instead: the same samples,
in the same order, with their ink changed by a tool (e.g. tall_strokes.py), so that one server
at both URLs measures a change to the ink before the service is changed. Samples are the unit,
not persons: a person's samples move together, so the interval is, if anything, too narrow.
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import sys

import shared_eval as ev


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def distances(server, samples, lang, charset):
    def read(sample, lang):
        status, payload, _ = ev.recognize(server, sample, lang, {}, 60.0, charset)
        return payload.get("text", "") if status == 200 else ""

    def one(sample):
        if lang == "parts":
            got = "\n".join(read(part, part["lang"]) for part in sample["parts"])
        else:
            got = read(sample, lang)
        return ev.edit_distance(ev.normalize(sample["text"]), ev.normalize(got))
    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(one, samples))


def interval(rows, rounds, rng):
    """95 % bootstrap interval of the CER difference (b − a), in points."""
    n = len(rows)
    diffs = []
    for _ in range(rounds):
        pick = [rows[rng.randrange(n)] for _ in range(n)]
        chars = sum(r[0] for r in pick) or 1
        diffs.append(100.0 * (sum(r[2] for r in pick) - sum(r[1] for r in pick)) / chars)
    diffs.sort()
    return diffs[int(0.025 * rounds)], diffs[int(0.975 * rounds) - 1]


def parse_spec(spec):
    """FILE.jsonl with optional :CHARSET and @LANG suffixes, in either order: (path, charset, lang)."""
    end = spec.rfind(".jsonl") + len(".jsonl")
    if end < len(".jsonl"):
        sys.exit(f"{spec}: not a .jsonl file")
    parts = re.findall(r"([:@])([^:@]+)", spec[end:])
    if "".join(mark + value for mark, value in parts) != spec[end:]:
        sys.exit(f"{spec}: expected FILE.jsonl[:CHARSET][@LANG]")
    suffixes = dict(parts)
    return spec[:end], suffixes.get(":", ""), suffixes.get("@", "")


def report(name, rows, rounds, rng):
    chars = sum(r[0] for r in rows) or 1
    a = 100.0 * sum(r[1] for r in rows) / chars
    b = 100.0 * sum(r[2] for r in rows) / chars
    low, high = interval(rows, rounds, rng)
    print("%-30s n=%-5d a=%6.2f%%  b=%6.2f%%  b-a=%+6.2f  95%% [%+6.2f, %+6.2f]%s"
          % (name, len(rows), a, b, b - a, low, high, "" if low <= 0 <= high else "  *"), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="JSON Lines ink files, each optionally :CHARSET (number, digits) and @LANG")
    ap.add_argument("--a", required=True, help="server of model a")
    ap.add_argument("--b", required=True, help="server of model b")
    ap.add_argument("--b-ink", help="b reads the file of the same name in this directory")
    ap.add_argument("--lang", default="eng")
    ap.add_argument("--b-lang", help="the language b reads with, when it is not --lang (two models of one server)")
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    everything = []
    for spec in args.files:
        path, charset, lang = parse_spec(spec)
        samples = load(path)
        da = distances(args.a, samples, lang or args.lang, charset or None)
        if args.b_ink:
            changed = load(os.path.join(args.b_ink, os.path.basename(path)))
            if [s["text"] for s in changed] != [s["text"] for s in samples]:
                sys.exit(f"{path}: --b-ink's file holds other samples")
        else:
            changed = samples
        db = distances(args.b, changed, args.b_lang or lang or args.lang, charset or None)
        rows = [(len(ev.normalize(s["text"])), x, y) for s, x, y in zip(samples, da, db)]
        report(os.path.basename(path), rows, args.rounds, rng)
        everything += rows
    report("all", everything, args.rounds, rng)


if __name__ == "__main__":
    main()
