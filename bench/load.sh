#!/usr/bin/env bash
# Load and backpressure: a mixed workload (reads, ink posts, edits) for SECONDS, then OCR overload
# (one worker, queue of 2, an ink flood) against reads alone. Rate limits are off in both runs.
# Prints throughput, p50/p99 per route, answers by status and the server's RSS; exits non-zero when an
# acceptance check fails (a 5xx other than 503, RSS growth >= 10% once warm, no 503 or no Retry-After
# under overload).
# Usage: bench/load.sh [seconds, default 60] [users, default 8] [overload seconds per phase, default 15]
# Ink comes from the repository's fixtures (Tests/Fixtures/ink).
source "$(dirname "$0")/lib.sh"
SECONDS_RUN=${1:-60}
USERS=${2:-8}
OVERLOAD_SECONDS=${3:-15}
build_release
status=0
python3 "$ROOT/e2e/reliability/load.py" mixed --seconds "$SECONDS_RUN" --users "$USERS" --dir "$OUT/load" \
  | tee "$OUT/load-mixed.txt" || status=1
python3 "$ROOT/e2e/reliability/load.py" overload --seconds "$OVERLOAD_SECONDS" --dir "$OUT/load" \
  | tee "$OUT/load-overload.txt" || status=1
exit $status
