#!/usr/bin/env bash
# Scale-out: nginx in front of 1 and 3 nodes on one PostgreSQL (a throw-away cluster started here),
# and 1 node on SQLite, in one run (bench/nodes.py): board reads, key input and recognitions per
# second, latency, and CPU time per request.
# Usage: bench/nodes.sh [seconds per workload, default 10] [connections, default 16]
source "$(dirname "$0")/lib.sh"
build_release
start_postgres
INKSTICKER_BIN="$BIN" python3 "$ROOT/bench/nodes.py" --postgres "$PG_CONN" \
    --seconds "${1:-10}" --connections "${2:-16}"
