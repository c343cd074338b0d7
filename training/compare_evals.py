#!/usr/bin/env python3
"""Held-out results of two or more models side by side, with the totals a model is chosen by.

  /usr/bin/python3 training/compare_evals.py WORK eval-heldout-eng-shipped.txt eval-heldout-eng-new.txt

Each file is the output of `SETS=heldout training/evaluate.sh` (tools/eval.py's lines, one per
ink file of WORK/ink). Printed: every set's CER in each file, then, per part (`persons`,
`groups`), the CER weighted by characters over all its sets and over the real ink alone (words,
text, the numbers they wrote, digits, letters: not the lines and numbers composed for the
check), as the model card reports runs. Whether a difference is more than the noise of the
sample is training/paired.py's question: a run is shipped when no part's real ink is worse
beyond its interval and the held-out sets together are better beyond theirs.
"""
import json
import re
import sys
from pathlib import Path

import shared_eval as ev

LINE = re.compile(r"^(dev-\S+\.jsonl)\s+n=(\d+)\s.*?CER=\s*([\d.]+)%")
REAL = ("words", "text", "numbers", "digits", "chars")


def characters(path):
    """Characters of the truths as eval.py counts them."""
    with open(path, encoding="utf-8") as f:
        return sum(len(ev.normalize(json.loads(line)["text"])) for line in f if line.strip())


def read(path):
    results = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        m = LINE.match(line)
        if m:
            results[m.group(1)] = float(m.group(3))
    return results


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    work = Path(sys.argv[1])
    files = sys.argv[2:]
    runs = [read(f if Path(f).exists() else work / f) for f in files]
    names = [n for n in runs[0] if all(n in r for r in runs)]
    chars = {n: characters(work / "ink" / n) for n in names}
    labels = [Path(f).stem.replace("eval-heldout-", "") for f in files]
    print("%-30s %8s  %s" % ("set", "chars", "  ".join("%12s" % l[:12] for l in labels)))
    for n in names:
        print("%-30s %8d  %s" % (n, chars[n], "  ".join("%11.2f%%" % r[n] for r in runs)))
    for part in ("persons", "groups"):
        for title, kinds in (("all sets", None), ("real ink", REAL)):
            chosen = [n for n in names if n.startswith("dev-%s-" % part)
                      and (kinds is None or n[len("dev-%s-" % part):-len(".jsonl")] in kinds)]
            total = sum(chars[n] for n in chosen)
            if not total:
                continue
            weighted = [sum(r[n] * chars[n] for n in chosen) / total for r in runs]
            print("%-30s %8d  %s" % ("%s, %s" % (part, title), total,
                                     "  ".join("%11.2f%%" % w for w in weighted)))


if __name__ == "__main__":
    main()
