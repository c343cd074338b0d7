#!/usr/bin/env bash
# Latency of "lang": "auto" against the single models, side by side in one run: one release
# server with two OCR workers (auto reads with both models at once, one worker each), rate limit
# off, and tools/eval.py with one connection, interleaved ROUNDS times:
#   eng and auto on real handwritten words and text lines (../shared/corpus/real);
#   kor and auto on the Korean evaluation ink (Tests/Fixtures/hangul).
# Prints client-side p50 per corpus and language (median of the rounds), and auto against the
# model of each corpus's own language. Accuracy is printed too; training/paired.py measures it
# on held-out ink.
#
# Usage: bench/auto.sh [ROUNDS, default 3]   (SHARED=... if ../shared is elsewhere)
source "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
find_shared
KOREAN=("$ROOT/Tests/Fixtures/hangul/hangul-words.jsonl" "$ROOT/Tests/Fixtures/hangul/hangul-lines.jsonl")
LATIN=("$SHARED/corpus/real/unipen-words.jsonl" "$SHARED/corpus/real/unipen-text.jsonl")

build_release
PORT=$(free_port)
start_inksticker "$PORT" --ocr-workers 2 --rate-ink-per-address 0
for round in $(seq 1 "$ROUNDS"); do
    for run in eng:latin auto:latin kor:korean auto:korean; do
        lang=${run%%:*}; script=${run#*:}
        corpora=("${KOREAN[@]}")
        [[ $script == latin ]] && corpora=("${LATIN[@]}")
        python3 "$SHARED/tools/eval.py" --server "http://127.0.0.1:$PORT" --lang "$lang" --concurrency 1 --json \
            "${corpora[@]}" | tail -1 > "$OUT/auto-$lang-$script-$round.json"
        echo "round $round $lang on $script done" >&2
    done
done

python3 - "$OUT" "$ROUNDS" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
p50 = {}
print(f"{'language':<8} {'corpus':<24} {'p50':>9} {'CER':>7} {'exact':>7}")
for lang, script in (("eng", "latin"), ("auto", "latin"), ("kor", "korean"), ("auto", "korean")):
    results = [json.load(open(f"{out}/auto-{lang}-{script}-{r}.json")) for r in range(1, rounds + 1)]
    for key in results[0]:
        if key == "total":
            continue
        name = key.rsplit("/", 1)[-1]
        kind = "lines" if ("lines" in name or "text" in name) else "words"
        p50[lang, script, kind] = value = statistics.median(r[key]["p50_ms"] for r in results)
        last = results[-1][key]
        print(f"{lang:<8} {name:<24} {value:>6.1f} ms {100 * last['cer']:>6.1f}% {100 * last['exact']:>6.1f}%")
for script, own in (("latin", "eng"), ("korean", "kor")):
    for kind in ("words", "lines"):
        print(f"auto/{own} p50 per {kind[:-1]} ({script}): {p50['auto', script, kind] / p50[own, script, kind]:.2f}x")
print(f"auto on Korean words / eng on Latin words: {p50['auto', 'korean', 'words'] / p50['eng', 'latin', 'words']:.2f}x")
PY
