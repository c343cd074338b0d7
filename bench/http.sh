#!/usr/bin/env bash
# GET /healthz on InkSticker against nginx serving the same bytes, in the same run, with wrk.
# Usage: bench/http.sh [seconds] [connections]
source "$(dirname "$0")/lib.sh"
SECONDS_RUN=${1:-10}
CONNS=${2:-32}
build_release
P1=$(free_port); P2=$(free_port)
start_inksticker "$P1"
mkdir -p "$OUT/static"
curl -s "http://127.0.0.1:$P1/healthz" >"$OUT/static/healthz"
start_nginx "$P2" "$OUT/static"
wait_http "http://127.0.0.1:$P2/healthz"
# Warm both, then measure each alone (wrk itself takes one of the two cores).
wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$P1/healthz" >/dev/null
wrk -t1 -c"$CONNS" -d2s "http://127.0.0.1:$P2/healthz" >/dev/null
a=$(run_wrk inksticker "http://127.0.0.1:$P1/healthz" -t1 -c"$CONNS" -d"${SECONDS_RUN}s")
b=$(run_wrk nginx "http://127.0.0.1:$P2/healthz" -t1 -c"$CONNS" -d"${SECONDS_RUN}s")
python3 - "$a" "$b" "$CONNS" "$SECONDS_RUN" <<'PY'
import sys
a = sys.argv[1].split(); b = sys.argv[2].split()
print(f"GET /healthz, wrk -t1 -c{sys.argv[3]} -d{sys.argv[4]}s, keep-alive, body {15} bytes")
print(f"{'server':<12}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-2xx':>9}")
for r in (a, b):
    print(f"{r[0]:<12}{float(r[1]):>10.0f}{float(r[2]):>10.3f}{float(r[3]):>10.3f}{r[4]:>9}")
print(f"ratio inksticker/nginx: {float(a[1])/float(b[1]):.2f}x requests/s (target >= 1.2x)")
PY
