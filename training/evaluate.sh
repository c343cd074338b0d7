#!/usr/bin/env bash
# Scores the service through its HTTP API (tools/eval.py) with the shipped model and with stock
# eng, on the real and synthetic test corpora, the way the acceptance numbers in
# Models/README.md were measured.
#
#   training/evaluate.sh [LANG...]          default: eng eng-stock (eng is read by the default, ink-tall)
#   LIMIT=50 training/evaluate.sh ink       first 50 samples of each file (quick look)
#   SETS=heldout training/evaluate.sh eng   the held-out persons and collections of train.sh
#                                           (WORK/ink/dev-*.jsonl) instead of the test corpora
#   MODELS=DIR training/evaluate.sh eng     models from DIR instead of ./Models (a candidate,
#                                           or the model before, side by side)
#   SERVER_ARGS="--syllable-blocks all" SETS=heldout TAG=-blocks training/evaluate.sh eng
#                                           a server option as a lever, results tagged
#   SETS=FILE.jsonl training/evaluate.sh kor   one ink file (e.g. a held-out font)
#   CHARSET=number SETS=FILE.jsonl ...         one ink file read with a character hint
#   SETS=hangul training/evaluate.sh kor kor-stock
#                                           the Korean evaluation ink of evaluation fonts
#                                           (Tests/Fixtures/hangul), Korean model and stock kor
#
# Starts its own server (debug build, port chosen by the kernel, throwaway database, no rate
# limit on ink posts) and stops it at the end. Results: training/work/eval-<lang>.txt.
set -euo pipefail

source "$(dirname "$0")/common.sh"
WORK="${WORK:-$ROOT/training/work}"
LIMIT="${LIMIT:-0}"
SETS="${SETS:-test}"
MODELS="${MODELS:-$ROOT/Models}"
TAG="${TAG:-}"
langs=("$@")
[[ ${#langs[@]} -gt 0 ]] || langs=(eng eng-stock)

mkdir -p "$WORK/eval-server"
[[ $SETS == test || $SETS == heldout || $SETS == hangul || -f $SETS ]] || { echo "SETS is test, heldout, hangul or a file" >&2; exit 2; }
(cd "$ROOT" && swift build --product inksticker 2>&1 | tail -1)
rm -f "$WORK/eval-server/db.sqlite"*
OMP_THREAD_LIMIT=1 "$ROOT/.build/debug/inksticker" serve --port 0 --db "$WORK/eval-server/db.sqlite" \
    --models "$MODELS" --rate-ink-per-address 0 ${SERVER_ARGS:-} > "$WORK/eval-server/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
port=""
for _ in $(seq 1 100); do
    port="$(grep -oE '"port":"?[0-9]+' "$WORK/eval-server/server.log" | grep -oE '[0-9]+$' | head -1 || true)"
    [[ -n "$port" ]] && break
    sleep 0.2
done
[[ -n "$port" ]] || { cat "$WORK/eval-server/server.log"; echo "server did not report its port" >&2; exit 1; }
server_url="http://127.0.0.1:$port"

corpus="$SHARED/corpus"
for lang in "${langs[@]}"; do
    out="$WORK/eval-$(basename "$SETS" .jsonl)-$lang$TAG.txt"
    : > "$out"
    run() { python3 "$SHARED/tools/eval.py" --server "$server_url" --lang "$lang" --concurrency 2 --limit "$LIMIT" "$@" | tee -a "$out"; }
    if [[ -f $SETS ]]; then
        run ${CHARSET:+--charset "$CHARSET"} "$SETS"
    elif [[ $SETS == hangul ]]; then
        run "$ROOT/Tests/Fixtures/hangul/hangul-words.jsonl" "$ROOT/Tests/Fixtures/hangul/hangul-lines.jsonl"
    elif [[ $SETS == test ]]; then
        run "$corpus/real/unipen-words.jsonl" "$corpus/real/unipen-text.jsonl" "$corpus/synthetic/print.jsonl" "$corpus/synthetic/script.jsonl"
        run --charset number "$corpus/real/unipen-numbers.jsonl"
        run --charset digits "$corpus/real/unipen-digits.jsonl"
    else
        # Held-out persons and collections of training/train.sh: never trained on; the persons
        # chose the checkpoint, the collections did not.
        for part in persons groups; do
            run "$WORK/ink/dev-$part-words.jsonl" "$WORK/ink/dev-$part-text.jsonl" "$WORK/ink/dev-$part-lines.jsonl" \
                "$WORK/ink/dev-$part-chars.jsonl"
            run --charset number "$WORK/ink/dev-$part-cnumbers.jsonl"
            [[ -s "$WORK/ink/dev-$part-xnumbers.jsonl" ]] && run --charset number "$WORK/ink/dev-$part-xnumbers.jsonl"
            [[ -s "$WORK/ink/dev-$part-numbers.jsonl" ]] && run --charset number "$WORK/ink/dev-$part-numbers.jsonl"
            run --charset digits "$WORK/ink/dev-$part-digits.jsonl"
        done
        run "$WORK/ink/dev-english.jsonl" "$WORK/ink/dev-synth.jsonl"
    fi
done
