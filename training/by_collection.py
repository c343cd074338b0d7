#!/usr/bin/env python3
"""Two servers read the same held-out ink; CER per collection (UNIPEN contributor directory) or
per hand (the font of synthetic ink), side by side, before and after a change of model.

  /usr/bin/python3 training/by_collection.py --a URL --b URL WORK/ink/dev-persons-words.jsonl[:CHARSET] ...
  /usr/bin/python3 training/by_collection.py --a URL --by font --lang kor WORK/ink/dev-kor-clova.jsonl

Each sample is read by both servers (tools/eval.py's request and scoring, `lang` eng by default)
and its edit distance kept for both; printed per file, per group (the sample's `writerGroup`, or
the field --by names) and over everything: samples, characters, CER of a and b (weighted by
characters) and b − a. Without --b, one server's CER. Only held-out ink (train.sh and
train-kor.sh write it); never the test files.
"""
import argparse
import collections
import concurrent.futures as cf
import json

import shared_eval as ev


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="JSON Lines ink files, each optionally :CHARSET (number, digits)")
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", help="the second server (without it, a alone)")
    ap.add_argument("--by", default="writerGroup", help="the sample field to group by (writerGroup, font, kind)")
    ap.add_argument("--lang", default="eng")
    a = ap.parse_args()
    total = collections.defaultdict(lambda: [0, 0, 0, 0])
    for spec in a.files:
        path, _, charset = spec.partition(":")
        with open(path, encoding="utf-8") as f:
            samples = [json.loads(line) for line in f if line.strip()]

        def one(sample):
            truth = ev.normalize(sample["text"])
            row = [len(truth)]
            for server in (a.a, a.b) if a.b else (a.a,):
                status, payload, _ = ev.recognize(server, sample, a.lang, {}, 60.0, charset or None)
                got = ev.normalize(payload.get("text", "")) if status == 200 else ""
                row.append(ev.edit_distance(truth, got))
            if not a.b:
                row.append(row[-1])
            return str(sample.get(a.by, "?")), row

        groups = collections.defaultdict(lambda: [0, 0, 0, 0])
        with cf.ThreadPoolExecutor(max_workers=2) as pool:
            for group, (chars, da, db) in pool.map(one, samples):
                for key in (group, "all"):
                    groups[key][0] += 1
                    groups[key][1] += chars
                    groups[key][2] += da
                    groups[key][3] += db
        name = path.rsplit("/", 1)[-1] + (":" + charset if charset else "")
        for group in sorted(groups, key=lambda g: (g == "all", g)):
            n, chars, da, db = groups[group]
            ca, cb = 100.0 * da / max(chars, 1), 100.0 * db / max(chars, 1)
            print("%-34s %-6s n=%-5d chars=%-6d a=%6.2f%%  b=%6.2f%%  b-a=%+6.2f" % (name, group, n, chars, ca, cb, cb - ca),
                  flush=True)
            for i, v in enumerate((n, chars, da, db)):
                total[group][i] += v
    for group in sorted(total, key=lambda g: (g == "all", g)):
        n, chars, da, db = total[group]
        ca, cb = 100.0 * da / max(chars, 1), 100.0 * db / max(chars, 1)
        print("%-34s %-6s n=%-5d chars=%-6d a=%6.2f%%  b=%6.2f%%  b-a=%+6.2f" % ("every file", group, n, chars, ca, cb, cb - ca))


if __name__ == "__main__":
    main()
