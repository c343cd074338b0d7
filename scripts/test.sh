#!/usr/bin/env bash
# Runs the whole test suite: unit tests, live-socket tests, end-to-end tests with real Tesseract and
# SQLite, the store and app suites again on PostgreSQL (a throw-away cluster the suite starts and
# stops itself, scripts/postgres.sh), the multi-node tests (e2e/nodes), then the HTTP edges
# (lingering close, httplint on every kind of response), the API contract (schemathesis against
# openapi.yaml), the browser test of the web page (headless Chromium), each on both stores, crash
# safety (SIGKILL under a write load, 3 rounds on each store) and 60 s of libFuzzer on each parser
# (HTTP requests, JSON ink, InkML).
# INKSTICKER_SKIP_HTTP=1 / INKSTICKER_SKIP_CONTRACT=1 / INKSTICKER_SKIP_BROWSER=1 / INKSTICKER_SKIP_CRASH=1 /
# INKSTICKER_SKIP_FUZZ=1 / INKSTICKER_SKIP_POSTGRES=1 skip those parts;
# INKSTICKER_FUZZ_SECONDS sets the fuzzing time per target.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/deps.sh python3 python3-venv curl jq postgresql
swift build --build-tests
swift test --skip-build
bin="$(swift build --show-bin-path)/inksticker"
postgres=""
if [ "${INKSTICKER_SKIP_POSTGRES:-0}" != 1 ]; then
  pg_dir="$(mktemp -d)"
  trap 'scripts/postgres.sh stop "$pg_dir"; rm -rf "$pg_dir"' EXIT
  postgres="$(scripts/postgres.sh start "$pg_dir")"
  echo "PostgreSQL: $postgres"
  INKSTICKER_TEST_POSTGRES="$postgres" swift test --skip-build --filter 'StoreTests|InkStickerAppTests'
  INKSTICKER_BIN="$bin" PG_DIR="$pg_dir" python3 e2e/nodes/multi_node.py --postgres "$postgres"
fi
if [ "${INKSTICKER_SKIP_HTTP:-0}" != 1 ]; then
  INKSTICKER_BIN="$bin" e2e/http/run.sh
  [ -z "$postgres" ] || INKSTICKER_TEST_POSTGRES="$postgres" INKSTICKER_BIN="$bin" e2e/http/run.sh
fi
if [ "${INKSTICKER_SKIP_CONTRACT:-0}" != 1 ]; then
  INKSTICKER_BIN="$bin" e2e/contract/run.sh
  # On PostgreSQL with fewer generated cases per operation: the same contract, a second store.
  [ -z "$postgres" ] || CONTRACT_EXAMPLES="${CONTRACT_EXAMPLES:-100}" INKSTICKER_TEST_POSTGRES="$postgres" \
    INKSTICKER_BIN="$bin" e2e/contract/run.sh
fi
if [ "${INKSTICKER_SKIP_BROWSER:-0}" != 1 ]; then
  INKSTICKER_BIN="$bin" e2e/browser/run.sh
  [ -z "$postgres" ] || INKSTICKER_TEST_POSTGRES="$postgres" INKSTICKER_BIN="$bin" e2e/browser/run.sh
fi
if [ "${INKSTICKER_SKIP_CRASH:-0}" != 1 ]; then
  INKSTICKER_BIN="$bin" python3 e2e/reliability/crash_safety.py --rounds 3
  [ -z "$postgres" ] || INKSTICKER_BIN="$bin" python3 e2e/reliability/crash_safety.py --rounds 3 --postgres "$postgres"
fi
if [ "${INKSTICKER_SKIP_FUZZ:-0}" != 1 ]; then
  scripts/fuzz.sh "${INKSTICKER_FUZZ_SECONDS:-60}"
fi
