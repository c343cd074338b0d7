#!/usr/bin/env bash
# Recognition latency of the shipped pen-ink model against Tesseract's stock English model, side
# by side on the same inks in one run: one release server (one OCR worker, rate limit off), and
# tools/eval.py with one connection sending each corpus with "lang": "eng" (read by `ink-tall`,
# the default, with its dictionary), "ink-raw" (`ink` without it) and "eng-stock", the three
# interleaved, ROUNDS times. Prints client-side p50 per corpus and language (median of the
# rounds) and the ratio to stock.
#
# PREVIOUS=FILE.traineddata adds that model as a fourth language, "ink-previous" (a model being
# replaced, read with the same server in the same run).
# BASELINE_ARGS="--text-width-scale 1" adds "eng-baseline": `eng` (or BASELINE_LANG, e.g.
# ink-previous) read by a second server started with those options (a server setting being
# replaced, in the same run).
#
# Usage: bench/models.sh [ROUNDS, default 3]   (SHARED=... if ../shared is elsewhere)
source "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
find_shared
CORPORA=("$SHARED/corpus/synthetic/print.jsonl" "$SHARED/corpus/synthetic/script.jsonl"
         "$SHARED/corpus/real/unipen-words.jsonl" "$SHARED/corpus/real/unipen-text.jsonl")
LANGS=(eng ink-raw eng-stock)
MODELS_DIR="$ROOT/Models"
if [[ -n "${PREVIOUS:-}" ]]; then
    MODELS_DIR="$OUT/models"
    mkdir -p "$MODELS_DIR"
    cp "$ROOT"/Models/*.traineddata "$MODELS_DIR/"
    cp "$PREVIOUS" "$MODELS_DIR/ink-previous.traineddata"
    LANGS=(eng ink-previous ink-raw eng-stock)
fi

build_release
PORT=$(free_port)
start_inksticker "$PORT" --ocr-workers 1 --rate-ink-per-address 0 --models "$MODELS_DIR"
if [[ -n "${BASELINE_ARGS:-}" ]]; then
    BASELINE_PORT=$(free_port)
    # shellcheck disable=SC2086  # the options are words
    BENCH_DB=bench-baseline start_inksticker "$BASELINE_PORT" --ocr-workers 1 --rate-ink-per-address 0 \
        --models "$MODELS_DIR" $BASELINE_ARGS
    LANGS=(eng eng-baseline "${LANGS[@]:1}")
fi
for round in $(seq 1 "$ROUNDS"); do
    for lang in "${LANGS[@]}"; do
        port=$PORT served=$lang
        [[ $lang == eng-baseline ]] && port=$BASELINE_PORT served=${BASELINE_LANG:-eng}
        python3 "$SHARED/tools/eval.py" --server "http://127.0.0.1:$port" --lang "$served" --concurrency 1 --json \
            "${CORPORA[@]}" | tail -1 > "$OUT/models-$lang-$round.json"
        echo "round $round $lang done" >&2
    done
done

python3 - "$OUT" "$ROUNDS" "${LANGS[@]}" <<'PY'
import json, statistics, sys
out, rounds, langs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
runs = {lang: [json.load(open(f"{out}/models-{lang}-{r}.json")) for r in range(1, rounds + 1)] for lang in langs}
files = [k for k in runs[langs[0]][0] if k != "total"]
print(f"{'corpus':<24}" + "".join(f"{lang + ' p50':>16}" for lang in langs) + "".join(f"{lang + '/stock':>18}" for lang in langs[:-1]))
for key in files + ["total"]:
    p50 = {lang: statistics.median(run[key]["p50_ms"] for run in runs[lang]) for lang in langs}
    name = key.rsplit("/", 1)[-1]
    print(f"{name:<24}" + "".join(f"{p50[lang]:>13.1f} ms" for lang in langs)
          + "".join(f"{p50[lang] / p50[langs[-1]]:>17.2f}x" for lang in langs[:-1]))
PY
