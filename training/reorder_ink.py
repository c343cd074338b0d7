#!/usr/bin/env python3
"""Writes copies of ink files with their strokes in another order, to measure that what is read
does not depend on the order strokes arrive in (paired.py --b-ink DIR reads each copy against
the original through one server).

  /usr/bin/python3 training/reorder_ink.py --order shuffled --seed 7 -o DIR FILE.jsonl ...
  /usr/bin/python3 training/paired.py --a URL --b URL --b-ink DIR FILE.jsonl ...

Orders: `shuffled` (seeded, per sample), `height` (sorted by each stroke's top, top to bottom
across the whole ink, as a client sorting by y sends it), `reversed`, `late` (a seeded fifth of the
strokes moved after the rest: a forgotten final consonant, a bar or an accent added afterwards).
Each copy keeps the file's name, its samples and their order; only the strokes move.
"""
import argparse
import json
import os
import random


def reorder(strokes, order, rng):
    indexes = list(range(len(strokes)))
    if order == "shuffled":
        rng.shuffle(indexes)
    elif order == "height":
        indexes.sort(key=lambda i: (min(strokes[i]["y"]) if strokes[i]["y"] else 0, i))
    elif order == "reversed":
        indexes.reverse()
    elif order == "late":
        late = set(rng.sample(indexes, max(1, len(indexes) // 5))) if indexes else set()
        indexes = [i for i in indexes if i not in late] + [i for i in indexes if i in late]
    else:
        raise SystemExit("unknown order: " + order)
    return [strokes[i] for i in indexes]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--order", required=True, choices=["shuffled", "height", "reversed", "late"])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("-o", "--out", required=True, help="folder for the copies")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for path in a.files:
        rng = random.Random("%s:%d" % (os.path.basename(path), a.seed))
        with open(path, encoding="utf-8") as f, open(os.path.join(a.out, os.path.basename(path)), "w", encoding="utf-8") as out:
            for line in f:
                if not line.strip():
                    continue
                sample = json.loads(line)
                sample["strokes"] = reorder(sample["strokes"], a.order, rng)
                out.write(json.dumps(sample, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
