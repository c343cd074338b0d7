#!/usr/bin/env python3
"""Top character confusions of a running server on held-out ink (never the test corpora).

Sends every sample to POST /v1/recognize (as tools/eval.py does), aligns reading and truth by
edit distance, and counts substitutions (truth → read), deletions (truth → ∅) and insertions
(∅ → read).

  python3 confusions.py --server http://127.0.0.1:8080 [--lang eng] [--charset number] FILE.jsonl... [--top 15]

--vocabulary sends every word of the files' truths (at most 1,000) as `hints.words` with each
sample: what a board's vocabulary (names, a shopping list) does when it holds the word written.
"""
import argparse
import collections
import concurrent.futures as cf
import json
import urllib.request


def recognize(server, sample, lang, charset, words=None):
    body = {"strokes": sample["strokes"], "lang": lang}
    hints = {}
    if charset:
        hints["charset"] = charset
    if words:
        hints["words"] = words
    if hints:
        body["hints"] = hints
    req = urllib.request.Request(server.rstrip("/") + "/v1/recognize", data=json.dumps(body).encode(),
                                 method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.loads(resp.read()).get("text", "")
    except Exception:  # noqa: BLE001 - a failed request reads as nothing
        return ""


def align(truth, read):
    """Edit operations turning truth into read: (truth char or '', read char or '')."""
    n, m = len(truth), len(read)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (truth[i - 1] != read[j - 1]))
    ops, i, j = [], n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and d[i][j] == d[i - 1][j - 1] + (truth[i - 1] != read[j - 1]):
            if truth[i - 1] != read[j - 1]:
                ops.append((truth[i - 1], read[j - 1]))
            i, j = i - 1, j - 1
        elif i > 0 and d[i][j] == d[i - 1][j] + 1:
            ops.append((truth[i - 1], ""))
            i -= 1
        else:
            ops.append(("", read[j - 1]))
            j -= 1
    return ops


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--server", default="http://127.0.0.1:8080")
    ap.add_argument("--lang", default="eng")
    ap.add_argument("--charset")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--vocabulary", action="store_true", help="send the truths' words as hints.words")
    a = ap.parse_args()
    samples = []
    for path in a.files:
        with open(path, encoding="utf-8") as f:
            samples += [json.loads(line) for line in f if line.strip()]
    words = None
    if a.vocabulary:
        words = sorted({w for s in samples for w in s["text"].split() if 0 < len(w) <= 64})[:1000]
    with cf.ThreadPoolExecutor(a.concurrency) as pool:
        readings = list(pool.map(lambda s: recognize(a.server, s, a.lang, a.charset, words), samples))
    counts = collections.Counter()
    chars = 0
    for sample, read in zip(samples, readings):
        truth = " ".join(sample["text"].split())
        chars += len(truth)
        counts.update(align(truth, " ".join(read.split())))
    errors = sum(counts.values())
    print("%d samples, %d characters, %d edits (CER %.3f)" % (len(samples), chars, errors, errors / max(chars, 1)))
    for (t, r), n in counts.most_common(a.top):
        print("  %-6s → %-6s %4d" % (repr(t) if t else "∅", repr(r) if r else "∅", n))


if __name__ == "__main__":
    main()
