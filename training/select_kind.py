#!/usr/bin/env python3
"""Samples of some kinds from a JSON-lines corpus (the `kind` field of corpus/train), at most
--max of them, drawn evenly over persons (round robin in a seeded order), so a few prolific
persons cannot fill a held-out set.

  python3 select_kind.py IN.jsonl --kind word,text --max 500 --seed 3 -o OUT.jsonl
"""
import argparse
import collections
import json
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--kind", required=True, help="comma-separated kinds")
    ap.add_argument("--max", type=int, default=0, help="0: all")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--new-labels", metavar="TRAIN.jsonl", help="keep only labels no sample of this file has")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    kinds = set(a.kind.split(","))
    known = set()
    if a.new_labels:
        with open(a.new_labels, encoding="utf-8") as f:
            known = {json.loads(line)["text"].strip() for line in f if line.strip()}
    by_person = collections.defaultdict(list)
    with open(a.input, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                if r.get("kind") in kinds and r["text"].strip() not in known:
                    by_person[r.get("person", "")].append(line if line.endswith("\n") else line + "\n")
    rng = random.Random(a.seed)
    queues = [by_person[p] for p in sorted(by_person)]
    for q in queues:
        rng.shuffle(q)
    rng.shuffle(queues)
    total = sum(len(q) for q in queues)
    want = min(a.max, total) if a.max else total
    chosen = []
    while len(chosen) < want:
        for q in queues:
            if q and len(chosen) < want:
                chosen.append(q.pop())
    with open(a.out, "w", encoding="utf-8") as out:
        out.writelines(chosen)
    print("%s: %d %s samples of %d" % (a.out, len(chosen), a.kind, total))


if __name__ == "__main__":
    main()
