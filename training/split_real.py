#!/usr/bin/env python3
"""Splits the real training ink (corpus/train/unipen-train.jsonl) into a training part and a
held-out part by source file (each UNIPEN file is one writer's session), so held-out lines
come from sessions the model never saw. Deterministic (CRC-32 of the file path). Sessions
with more than --max-session samples always stay in training: holding one out would take a
large share of the few real writers away from the model.

With --holdout-writers, whole writers are held out instead (UNIPEN directories such as
7/lav): the held-out ink then measures what the test corpora measure, writers the model
never saw, rather than new sessions of known writers.

  python3 split_real.py IN.jsonl --train OUT_TRAIN.jsonl --holdout OUT_HOLDOUT.jsonl [--percent 10]
  python3 split_real.py IN.jsonl --train OUT_TRAIN.jsonl --holdout OUT_HOLDOUT.jsonl --holdout-writers 7/lav
"""
import argparse
import collections
import json
import zlib


def session(record):
    source = record.get("source", "")
    return source.split("data/", 1)[-1].split(" ", 1)[0] or record["id"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--train", required=True)
    ap.add_argument("--holdout", required=True)
    ap.add_argument("--percent", type=int, default=10)
    ap.add_argument("--max-session", type=int, default=40)
    ap.add_argument("--holdout-writers", default="",
                    help="comma-separated UNIPEN directory prefixes held out whole (replaces --percent)")
    a = ap.parse_args()
    with open(a.input, encoding="utf-8") as f:
        lines = [line if line.endswith("\n") else line + "\n" for line in f if line.strip()]
    records = [json.loads(line) for line in lines]
    sizes = collections.Counter(session(r) for r in records)
    writers = [w.strip().strip("/") for w in a.holdout_writers.split(",") if w.strip()]
    counts = [0, 0]
    with open(a.train, "w", encoding="utf-8") as train, open(a.holdout, "w", encoding="utf-8") as holdout:
        for line, record in zip(lines, records):
            name = session(record)
            if writers:
                held = any(name == w or name.startswith(w + "/") for w in writers)
            else:
                held = sizes[name] <= a.max_session and zlib.crc32(name.encode()) % 100 < a.percent
            (holdout if held else train).write(line)
            counts[held] += 1
    print("real ink: %d training, %d held out" % (counts[0], counts[1]))


if __name__ == "__main__":
    main()
