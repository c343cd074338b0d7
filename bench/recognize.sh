#!/usr/bin/env bash
# Recognition speed, side by side, in one run (the load generator, wrk with one thread, shares the
# machine's cores with the server):
#   - a one-word ink: POST /v1/recognize end to end (1 worker, 1 connection) vs the bare in-process
#     Tesseract call on the same rendered image vs the `tesseract` command per request on a PNG of it;
#   - recognitions/s with 2 OCR workers vs 1 (concurrent clients);
#   - quality best vs fast on the same word;
#   - ink JSON decoding (50 KB) and rasterizing (20 strokes x 100 points) in-process;
#   - RSS with 2 workers idle and under load, thread count, OMP_THREAD_LIMIT of the running server
#     (started without it, so the re-exec guard has to set it).
# Usage: bench/recognize.sh [seconds per load run, default 8]
source "$(dirname "$0")/lib.sh"
RUN_SECONDS=${1:-8}
CORPUS="$ROOT/Tests/Fixtures/ink/print.jsonl"
WORD=${BENCH_WORD:-artless}

build_release
(cd "$TREE" && swift build -c release --product inkbench >&2)
INKBENCH="$TREE/.build/release/inkbench"

# The request body: one printed word of the ink fixtures.
python3 - "$CORPUS" "$WORD" "$OUT/word.json" "$OUT/word-best.json" <<'PY'
import json, sys
corpus, word, out, best = sys.argv[1:5]
sample = next(json.loads(l) for l in open(corpus) if json.loads(l)["text"] == word)
open(out, "w").write(json.dumps({"strokes": sample["strokes"]}))
open(best, "w").write(json.dumps({"strokes": sample["strokes"], "quality": "best"}))
PY

# In-process: bare Tesseract call on the rendered line, the pipeline, decode and raster.
"$INKBENCH" bare --ink "$OUT/word.json" --iterations 300 --pgm "$OUT/word.pgm" | tee "$OUT/bare.txt" >&2
"$INKBENCH" micro --iterations 500 | tee "$OUT/micro.txt" >&2

# The same image as a PNG for the tesseract command.
python3 - "$OUT/word.pgm" "$OUT/word.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
magic, size, depth, pixels = data.split(b"\n", 3)
w, h = map(int, size.split())
raw = b"".join(b"\x00" + pixels[y * w:(y + 1) * w] for y in range(h))
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
open(sys.argv[2], "wb").write(png)
PY
python3 - "$OUT/word.png" >"$OUT/cli.txt" <<'PY'
import os, statistics, subprocess, sys, time
times, text = [], ""
for _ in range(25):
    start = time.perf_counter()
    text = subprocess.run(["tesseract", sys.argv[1], "-", "--psm", "7", "--oem", "1"], capture_output=True, text=True).stdout.strip()
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.3f} {text}")
PY

cat >"$OUT/recognize.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.body = f:read("*a")
f:close()
LUA

# start_plain PORT WORKERS: the release server started WITHOUT OMP_THREAD_LIMIT (the executable
# must re-exec itself with it), ink rate limits off (this is a load test), sets SERVER_PID.
# Each server gets its own database file.
start_plain() {
  local port=$1 workers=$2
  rm -f "$OUT/bench-$workers.sqlite"*
  (cd "$TREE" && exec env -u OMP_THREAD_LIMIT "$BIN" serve --port "$port" --db "$OUT/bench-$workers.sqlite" \
     --ocr-workers "$workers" --rate-ink-per-address 0 --rate-ink-per-token 0 >"$OUT/inksticker-$workers.log" 2>&1) &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  wait_http "http://127.0.0.1:$port/healthz"
}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
threads() { ls "/proc/$1/task" | wc -l; }
omp() { tr '\0' '\n' <"/proc/$1/environ" | grep '^OMP_THREAD_LIMIT=' || echo "OMP_THREAD_LIMIT unset"; }
post() { BODY_FILE=$2 run_wrk "$1" "$3" -s "$OUT/recognize.lua" "${@:4}"; }

# Both servers run side by side (an idle one costs no CPU); load runs alternate between them so
# that other work on the machine weighs on both alike.
P1=$(free_port); start_plain "$P1" 1; PID1=$SERVER_PID; URL1="http://127.0.0.1:$P1/v1/recognize"
P2=$(free_port); start_plain "$P2" 2; PID2=$SERVER_PID; URL2="http://127.0.0.1:$P2/v1/recognize"
curl -sf -H 'Content-Type: application/json' --data-binary @"$OUT/word.json" "$URL1" >"$OUT/answer.json"
curl -sf -H 'Content-Type: application/json' --data-binary @"$OUT/word.json" "$URL2" >/dev/null
sleep 0.5
idle_rss=$(rss_kb "$PID2"); idle_threads=$(threads "$PID2"); omp_env=$(omp "$PID2")

# Latency: one worker, one connection, fast then best.
BODY_FILE="$OUT/word.json" wrk -t1 -c1 -d2s -s "$OUT/recognize.lua" "$URL1" >/dev/null
e2e=$(post e2e-1w "$OUT/word.json" "$URL1" -t1 -c1 -d"${RUN_SECONDS}s")
best=$(post e2e-best "$OUT/word-best.json" "$URL1" -t1 -c1 -d"${RUN_SECONDS}s")

# Throughput: 4 connections, three alternating rounds each; RSS and threads sampled mid-run.
ROUND=$(( (RUN_SECONDS + 1) / 2 ))
BODY_FILE="$OUT/word.json" wrk -t1 -c4 -d2s -s "$OUT/recognize.lua" "$URL2" >/dev/null
ones=(); twos=()
for round in 1 2 3; do
  ones+=("$(post load-1w-$round "$OUT/word.json" "$URL1" -t1 -c4 -d"${ROUND}s")")
  ( sleep $((ROUND / 2)); echo "$(rss_kb "$PID2") $(threads "$PID2")" >"$OUT/under-load-$round.txt" ) &
  twos+=("$(post load-2w-$round "$OUT/word.json" "$URL2" -t1 -c4 -d"${ROUND}s")")
  wait $!
done
read -r load_rss load_threads < <(sort -n "$OUT"/under-load-*.txt | tail -1)
one=$(printf '%s\n' "${ones[@]}" | sort -k2 -n | sed -n 2p)
two=$(printf '%s\n' "${twos[@]}" | sort -k2 -n | sed -n 2p)
echo "1 worker rounds: ${ones[*]}" >&2
echo "2 worker rounds: ${twos[*]}" >&2

python3 - "$OUT" "$e2e" "$best" "$one" "$two" "$idle_rss" "$load_rss" "$idle_threads" "$load_threads" "$omp_env" <<'PY'
import json, re, sys
out, e2e, best, one, two, idle_rss, load_rss, idle_threads, load_threads, omp = sys.argv[1:11]
def wrk(line):
    name, rps, p50, p99, errors = line.split()
    return float(rps), float(p50), float(p99), int(errors)
bare_text = open(f"{out}/bare.txt").read()
bare = float(re.search(r"bare Tesseract call .*?p50 ([\d.]+) ms", bare_text).group(1))
inproc = float(re.search(r"in-process pipeline .*?p50 ([\d.]+) ms", bare_text).group(1))
micro = open(f"{out}/micro.txt").read()
decode = float(re.search(r"decode .*?p50 ([\d.]+) ms", micro).group(1))
raster = float(re.search(r"rasterize .*?p50 ([\d.]+) ms", micro).group(1))
cli_ms, _, cli_text = open(f"{out}/cli.txt").read().strip().partition(" ")
cli_ms = float(cli_ms)
answer = json.load(open(f"{out}/answer.json"))
(e_rps, e_p50, e_p99, e_err), (b_rps, b_p50, b_p99, b_err) = wrk(e2e), wrk(best)
(o_rps, _, _, o_err), (t_rps, _, _, t_err) = wrk(one), wrk(two)
def row(what, value, target, ok):
    print(f"{what:<58} {value:<26} {target:<14} {'ok' if ok else 'MISSED'}")
print(f"one-word ink: '{answer['text']}' (tesseract CLI read '{cli_text}')")
print(f"{'measure':<58} {'value':<26} {'target':<14}")
row("bare in-process Tesseract call, p50", f"{bare:.3f} ms", "", True)
row("in-process pipeline (render + OCR + assemble), p50", f"{inproc:.3f} ms", "", True)
row("POST /v1/recognize end to end, 1 worker 1 conn, p50", f"{e_p50:.3f} ms (p99 {e_p99:.3f})", "", e_err == 0)
row("  end to end / bare", f"{e_p50 / bare:.3f}x", "<= 1.15x", e_p50 / bare <= 1.15)
row("tesseract CLI per request on the PNG, p50", f"{cli_ms:.1f} ms", "", True)
row("  CLI / end to end", f"{cli_ms / e_p50:.1f}x", ">= 15x", cli_ms / e_p50 >= 15)
row("quality best, end to end p50", f"{b_p50:.3f} ms ({b_p50 / e_p50:.2f}x fast)", "", b_err == 0)
row("recognitions/s, 1 worker (4 connections, median of 3)", f"{o_rps:.0f}/s", "", o_err == 0)
row("recognitions/s, 2 workers (4 connections, median of 3)", f"{t_rps:.0f}/s", "", t_err == 0)
row("  2 workers / 1 worker", f"{t_rps / o_rps:.2f}x", ">= 1.8x", t_rps / o_rps >= 1.8)
row("ink JSON decode, 50 KB document, p50", f"{decode:.3f} ms", "<= 0.5 ms", decode <= 0.5)
row("rasterize 20 strokes x 100 points, p50", f"{raster:.3f} ms", "<= 0.5 ms", raster <= 0.5)
row("RSS, 2 workers idle", f"{int(idle_rss) / 1024:.1f} MB", "", True)
row("RSS, 2 workers under load", f"{int(load_rss) / 1024:.1f} MB", "", True)
row("threads idle / under load (no OpenMP team)", f"{idle_threads} / {load_threads}", "equal", idle_threads == load_threads)
row("server environment (started without it)", omp, "=1", omp.strip() == "OMP_THREAD_LIMIT=1")
PY
