#!/usr/bin/env python3
"""Composed ink that a model reads back: drops composed samples the model reads far from their
label (mostly samples whose label their ink does not show).

`compose_real.py inword` takes each stroke group of a word that falls into as many groups as it
has letters for that letter; in a hand that joins some letters and lifts the pen inside others the
count matches by chance, and such a word's letters are taken for the wrong ones (a person's "U"
that is an "A"). A word written with them is mislabelled. Each sample is read through a running
server (tools/eval.py's request and normalisation) and kept when the reading's character error
rate, spaces left out (letters set wide apart read as several words), is at most --max-cer (at
0.2 one wrong letter in five passes: this drops words that are mostly wrong, not every wrong
letter, and keeps what the model already reads more than what it does not); the
first --n kept are written, in input order, so that a filtered file can hold as many samples as
the unfiltered one (compose more than needed with the same seed: the first samples are the same).

  /usr/bin/python3 training/readback.py --server URL IN.jsonl --max-cer 0.2 --n 12000 -o OUT.jsonl
"""
import argparse
import concurrent.futures as cf
import json
import sys
import time

import shared_eval as ev


def squeezed(text):
    return ev.normalize(text).replace(" ", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--server", required=True)
    ap.add_argument("--lang", default="ink")
    ap.add_argument("--max-cer", type=float, default=0.2)
    ap.add_argument("--n", type=int, default=None, help="write at most this many kept samples")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f:
        samples = [json.loads(line) for line in f if line.strip()]

    def rate(sample):
        for attempt in range(5):
            status, payload, _ = ev.recognize(a.server, sample, a.lang, {}, 60.0)
            if status not in (0, 429, 503):
                break
            time.sleep(2 ** attempt)   # not up yet, busy or rate-limited: again, later
        if status != 200:
            raise SystemExit("%s: HTTP %d %s" % (sample["id"], status, payload))
        truth = squeezed(sample["text"])
        return ev.edit_distance(truth, squeezed(payload.get("text") or "")) / max(1, len(truth))

    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        rates = list(pool.map(rate, samples))
    kept = [s for s, r in zip(samples, rates) if r <= a.max_cer]
    if a.n is not None:
        kept = kept[:a.n]
    with open(a.out, "w", encoding="utf-8") as out:
        for s in kept:
            out.write(json.dumps(s, separators=(",", ":")) + "\n")
    dropped = sum(r > a.max_cer for r in rates)
    if a.n is not None and len(kept) < a.n:
        print("readback: warning: only %d of the %d samples asked for kept; compose more" % (len(kept), a.n), file=sys.stderr)
    print("readback: %d read, %d (%.1f %%) over CER %.2f dropped, mean CER %.3f; %d written to %s"
          % (len(samples), dropped, 100.0 * dropped / max(1, len(samples)), a.max_cer,
             sum(rates) / max(1, len(rates)), len(kept), a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
