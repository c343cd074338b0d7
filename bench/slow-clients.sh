#!/usr/bin/env bash
# Slow clients: CONNECTIONS connections send their request head one byte per second while GET /healthz is
# measured; reports the /healthz p50 unloaded and loaded (target: under 2x) and how the slow connections
# ended (each must get 408 at the header timeout).
# Usage: bench/slow-clients.sh [connections, default 500] [seconds, default 20] [header timeout, default 5]
source "$(dirname "$0")/lib.sh"
CONNECTIONS=${1:-500}
SECONDS_RUN=${2:-20}
HEADER_TIMEOUT=${3:-5}
build_release
python3 "$ROOT/e2e/reliability/slow_clients.py" --connections "$CONNECTIONS" --seconds "$SECONDS_RUN" \
  --header-timeout "$HEADER_TIMEOUT" --dir "$OUT/slow" | tee "$OUT/slow-clients.txt"
exit "${PIPESTATUS[0]}"
