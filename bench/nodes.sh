#!/usr/bin/env bash
# Scale-out: nginx in front of 1 and 3 nodes on one PostgreSQL (a throw-away cluster started here),
# and 1 node on SQLite, in one run (bench/nodes.py): board reads, key input and recognitions per
# second, latency, and CPU time per request.
# Usage: bench/nodes.sh [seconds per workload, default 10] [connections, default 16]
source "$(dirname "$0")/lib.sh"
build_release
"$ROOT/scripts/deps.sh" postgresql nginx wrk >&2
PG="$OUT/postgres"
rm -rf "$PG"
CONN="$("$ROOT/scripts/postgres.sh" start "$PG")"
trap '"$ROOT/scripts/postgres.sh" stop "$PG"; cleanup' EXIT
INKSTICKER_BIN="$ROOT/.build/release/inksticker" python3 "$ROOT/bench/nodes.py" --postgres "$CONN" \
    --seconds "${1:-10}" --connections "${2:-16}"
