#!/usr/bin/env python3
"""CER and exact share of one model on held-out ink, per kind of sample (word, line, note, ...).

  /usr/bin/python3 training/by_kind.py --server URL --lang LANG FILE.jsonl ...

Each sample is read through the server's HTTP API (tools/eval.py's request and scoring, default
settings) and grouped by its `kind` field, as gen_ink.py writes it: whether a model reads single
words, lines or notes worse tells apart what a run of the whole set hides.
"""
import argparse
import collections

import paired
import shared_eval as ev


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", required=True)
    ap.add_argument("--lang", default="eng")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    for path in a.files:
        samples = paired.load(path)
        rows = [(s.get("kind", "?"), len(ev.normalize(s["text"])), d)
                for s, d in zip(samples, paired.distances(a.server, samples, a.lang, None))]
        totals = collections.defaultdict(lambda: [0, 0, 0, 0])
        for kind, chars, dist in rows:
            t = totals[kind]
            t[0] += 1
            t[1] += chars
            t[2] += dist
            t[3] += dist == 0
        print(path, flush=True)
        for kind, (n, chars, dist, exact) in sorted(totals.items()):
            print("  %-16s n=%-5d CER=%6.2f%%  exact=%5.1f%%" % (kind, n, 100.0 * dist / max(chars, 1), 100.0 * exact / n))


if __name__ == "__main__":
    main()
