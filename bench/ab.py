#!/usr/bin/env python3
"""Two running servers read the same corpora, interleaved: latency side by side, and whether they
read every sample the same.

After one reading per server and language to warm up, in each round server A then server B
(B then A in odd rounds), each language in turn, reads every sample of the corpora with one connection (tools/eval.py's request). Prints per server and
language the client-side p50 of each round and their median, p90 and mean over all rounds, the
CER of the first round, each language's p50 against the first language's on the same server
(`auto` against `kor`, say), and how many readings differ between the servers.

    python3 bench/ab.py --a http://127.0.0.1:8081 --b http://127.0.0.1:8082 \\
        --langs kor,auto --rounds 3 Tests/Fixtures/hangul/hangul-words.jsonl

Start both servers as bench/lib.sh does (release build, --rate-ink-per-address 0, the same
--ocr-workers and models) on a quiet machine; SHARED names the shared folder if it is not
../shared beside the repository. Not part of the test suite.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "training"))
import shared_eval as ev  # noqa: E402  (tools/eval.py of SHARED, default ../shared)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="+")
    ap.add_argument("--a", required=True, help="URL of server A (the reference)")
    ap.add_argument("--b", required=True, help="URL of server B")
    ap.add_argument("--langs", default="auto", help="comma-separated languages, each read by both")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", help="write every reading (JSON) here")
    args = ap.parse_args()
    langs = args.langs.split(",")
    samples = [json.loads(line) for path in args.corpus for line in open(path) if line.strip()]
    servers = (("A", args.a), ("B", args.b))
    # Each server loads a model on its first request in that language: one reading each, not counted.
    for _, url in servers:
        for lang in langs:
            ev.recognize(url, samples[0], lang, {}, 30)
    rows = []
    for r in range(args.rounds):
        for name, url in (servers if r % 2 == 0 else servers[::-1]):
            for lang in langs:
                for s in samples:
                    status, payload, ms = ev.recognize(url, s, lang, {}, 30)
                    rows.append({"round": r, "server": name, "lang": lang, "id": s["id"], "truth": s["text"],
                                 "ms": ms, "status": status, "text": payload.get("text")})
    if args.out:
        json.dump(rows, open(args.out, "w"))

    def cer(rs):
        edits = sum(ev.edit_distance(ev.normalize(x["truth"]), ev.normalize(x["text"] or "")) for x in rs)
        return 100.0 * edits / max(1, sum(len(ev.normalize(x["truth"])) for x in rs))

    p50 = {}
    print(f"{len(samples)} samples, {args.rounds} rounds; client-side ms")
    print(f"{'server':<7}{'lang':<10}{'p50 per round':<26}{'p50':>8}{'p90':>9}{'mean':>9}{'CER':>9}")
    for name, _ in servers:
        for lang in langs:
            rs = [x for x in rows if x["server"] == name and x["lang"] == lang]
            per = [statistics.median(x["ms"] for x in rs if x["round"] == r) for r in range(args.rounds)]
            ms = sorted(x["ms"] for x in rs)
            p50[name, lang] = statistics.median(per)
            print(f"{name:<7}{lang:<10}{' '.join('%.2f' % v for v in per):<26}{p50[name, lang]:>8.2f}"
                  f"{ms[int(0.9 * (len(ms) - 1))]:>9.2f}{statistics.mean(ms):>9.2f}"
                  f"{cer([x for x in rs if x['round'] == 0]):>8.2f}%")
    for name, _ in servers:
        for lang in langs[1:]:
            print(f"{name}: {lang}/{langs[0]} p50 {p50[name, lang] / p50[name, langs[0]]:.2f}x")
    for lang in langs:
        a = {(x["id"], x["round"]): (x["status"], x["text"]) for x in rows if x["server"] == "A" and x["lang"] == lang}
        b = {(x["id"], x["round"]): (x["status"], x["text"]) for x in rows if x["server"] == "B" and x["lang"] == lang}
        differ = [key for key in a if a[key] != b.get(key)]
        print(f"{lang}: {len(differ)} of {len(a)} readings differ between A and B"
              + "".join(f"\n  {key[0]} round {key[1]}: {a[key]!r} / {b.get(key)!r}" for key in differ[:5]))


if __name__ == "__main__":
    main()
