#!/usr/bin/env bash
# Rectangle queries on a board of 100,000 stickers, on SQLite and on PostgreSQL (a throw-away
# cluster started here), side by side in one run (bench/rect.py).
# Usage: bench/rect.sh [stickers, default 100000] [requests of each kind, default 2000]
source "$(dirname "$0")/lib.sh"
build_release
start_postgres
INKSTICKER_BIN="$BIN" python3 "$ROOT/bench/rect.py" --postgres "$PG_CONN" \
    --stickers "${1:-100000}" --requests "${2:-2000}"
