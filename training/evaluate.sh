#!/usr/bin/env bash
# Scores the service through its HTTP API (tools/eval.py) with the shipped model and with stock
# eng, on the real and synthetic test corpora, the way the acceptance numbers in
# Models/README.md were measured.
#
#   training/evaluate.sh [LANG...]          default: eng eng-stock (eng is read by the ink model)
#   LIMIT=50 training/evaluate.sh ink       first 50 samples of each file (quick look)
#
# Starts its own server (debug build, port chosen by the kernel, throwaway database, no rate
# limit on ink posts) and stops it at the end. Results: training/work/eval-<lang>.txt.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${WORK:-$ROOT/training/work}"
if [[ -z "${SHARED:-}" ]]; then
    for candidate in "$ROOT/../shared" "$ROOT/../../shared" /work/shared; do
        if [[ -d "$candidate/corpus" ]]; then SHARED="$(cd "$candidate" && pwd)"; break; fi
    done
fi
: "${SHARED:?set SHARED to the shared corpus/tools directory}"
LIMIT="${LIMIT:-0}"
langs=("$@")
[[ ${#langs[@]} -gt 0 ]] || langs=(eng eng-stock)

mkdir -p "$WORK/eval-server"
(cd "$ROOT" && swift build --product inksticker 2>&1 | tail -1)
rm -f "$WORK/eval-server/db.sqlite"*
OMP_THREAD_LIMIT=1 "$ROOT/.build/debug/inksticker" serve --port 0 --db "$WORK/eval-server/db.sqlite" \
    --models "$ROOT/Models" --rate-ink-per-address 0 > "$WORK/eval-server/server.log" 2>&1 &
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
    out="$WORK/eval-$lang.txt"
    : > "$out"
    run() { python3 "$SHARED/tools/eval.py" --server "$server_url" --lang "$lang" --concurrency 2 --limit "$LIMIT" "$@" | tee -a "$out"; }
    run "$corpus/real/unipen-words.jsonl" "$corpus/real/unipen-text.jsonl" "$corpus/synthetic/print.jsonl" "$corpus/synthetic/script.jsonl"
    run --charset number "$corpus/real/unipen-numbers.jsonl"
    run --charset digits "$corpus/real/unipen-digits.jsonl"
done
