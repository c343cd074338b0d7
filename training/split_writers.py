#!/usr/bin/env python3
"""Splits the real training corpora (corpus/train/unipen-writers.jsonl.gz and
unipen-writers-b.jsonl.gz: one or more files, read in turn) by person.

Held out whole, never sample by sample (training/heldout.json):
  * "groups": contributor directories (writerGroup) the model never meets at all, with every
    sample of their persons in other directories: they stand for a collection on another
    device, which is what users of the service are;
  * "persons": persons of the other directories, for checkpoint selection.
Everything else is training ink. Each output line keeps the corpus fields (kind, domain,
person, writer, writerGroup), so later stages can split by kind; labels that kept UNIPEN's
token spacing are written as the ink was written (clean_label).

  python3 split_writers.py IN.jsonl.gz [IN2.jsonl.gz ...] --heldout heldout.json --train TRAIN.jsonl \
      --persons DEV_PERSONS.jsonl --groups DEV_GROUPS.jsonl

  python3 split_writers.py IN.jsonl.gz --choose-persons 30 --heldout heldout.json
      rewrites the "persons" list of heldout.json: a deterministic choice (CRC-32 of the
      person id) of persons from every directory not held out, spread over the kinds of ink
      (words, text lines, numbers, digits, characters) in proportion to their writers; persons
      with more than --max-share of their directory's samples are skipped.

  python3 split_writers.py IN2.jsonl.gz --choose-persons 24 --add --heldout heldout.json
      keeps the persons already listed and adds that many more, chosen the same way from the
      given files only (the persons of a newer corpus file, the older file's choice unchanged).
"""
import argparse
import collections
import gzip
import json
import re
import zlib

# Contributor hpp kept UNIPEN's token spacing in about 50 labels: "( 4 5 6 ) 7 8 9 - 0 1 2 3" for
# a number written "(456)789-0123", "2: 0 0 on 3 / 2 3 / 9 2." for "2:00 on 3/23/92.", "she 'll"
# for "she'll" (corpus/train/README.md; checked on renders). Its letters written apart ("A B C")
# keep their spaces.
TOKEN_SPACE = re.compile(r"(?<=[0-9()/:.,$%-]) (?=[0-9()/:.,$%-])| (?='[a-z])")


def clean_label(record):
    """The label as written: hpp's token spaces between digits and number signs, and before
    an apostrophe's ending, removed."""
    if record["writerGroup"] == "hpp":
        text = TOKEN_SPACE.sub("", record["text"])
        if text != record["text"]:
            return dict(record, text=text)
    return record


def read(paths):
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield line if line.endswith("\n") else line + "\n", json.loads(line)


def choose_persons(records, groups, count, max_share):
    per_group = collections.defaultdict(collections.Counter)
    kinds = collections.defaultdict(set)
    group_persons = {r["person"] for r in records if r["writerGroup"] in groups}
    for r in records:
        if r["writerGroup"] in groups or r["person"] in group_persons:
            continue
        per_group[r["writerGroup"]][r["person"]] += 1
        kinds[r["person"]].add(r["kind"])
    # Take persons round robin over directories in CRC order, so every directory gives some.
    queues = []
    for group in sorted(per_group):
        total = sum(per_group[group].values())
        people = [p for p, n in per_group[group].items() if n <= max_share * total and len(per_group[group]) > 2]
        people.sort(key=lambda p: zlib.crc32(p.encode()))
        # At most a fifth of a directory's persons: the rest train.
        queues.append(people[: max(1, len(per_group[group]) // 5)])
    chosen = []
    while len(chosen) < count and any(queues):
        for queue in queues:
            if queue and len(chosen) < count:
                chosen.append(queue.pop(0))
    return sorted(chosen)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", nargs="+")
    ap.add_argument("--heldout", required=True, help="JSON with 'groups' and 'persons' lists")
    ap.add_argument("--train")
    ap.add_argument("--persons")
    ap.add_argument("--groups")
    ap.add_argument("--choose-persons", type=int, default=0)
    ap.add_argument("--max-share", type=float, default=0.15)
    ap.add_argument("--add", action="store_true", help="with --choose-persons: keep the listed persons, add more")
    a = ap.parse_args()
    with open(a.heldout, encoding="utf-8") as f:
        heldout = json.load(f)
    groups = set(heldout["groups"])
    if a.choose_persons:
        records = [r for _, r in read(a.input)]
        kept = heldout["persons"] if a.add else []
        records = [r for r in records if r["person"] not in kept]
        heldout["persons"] = sorted(kept + choose_persons(records, groups, a.choose_persons, a.max_share))
        with open(a.heldout, "w", encoding="utf-8") as f:
            json.dump(heldout, f, indent=2)
            f.write("\n")
        print("held out %d persons (%d added)" % (len(heldout["persons"]), len(heldout["persons"]) - len(kept)))
        return
    persons = set(heldout["persons"])
    # A person who wrote in a held-out directory is held out with it everywhere: some persons
    # wrote in two directories (ced+cee), and the model must not meet them in either.
    group_persons = {r["person"] for _, r in read(a.input) if r["writerGroup"] in groups}
    counts, relabelled = collections.Counter(), collections.Counter()
    with open(a.train, "w", encoding="utf-8") as train, open(a.persons, "w", encoding="utf-8") as dev_persons, \
            open(a.groups, "w", encoding="utf-8") as dev_groups:
        for line, r in read(a.input):
            if r["writerGroup"] in groups or r["person"] in group_persons:
                out, part = dev_groups, "groups"
            elif r["person"] in persons:
                out, part = dev_persons, "persons"
            else:
                out, part = train, "train"
            cleaned = clean_label(r)
            out.write(line if cleaned is r else json.dumps(cleaned, separators=(",", ":")) + "\n")
            counts[part, r["kind"]] += 1
            relabelled[part] += cleaned is not r
    for part in ("train", "persons", "groups"):
        kinds = {k: n for (p, k), n in sorted(counts.items()) if p == part}
        print("real ink, %s: %d (%s; %d labels without token spaces)" % (
            part, sum(kinds.values()), ", ".join("%s %d" % kv for kv in kinds.items()), relabelled[part]))


if __name__ == "__main__":
    main()
