# Shared helpers for the benchmark scripts (sourced).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
OUT="${BENCH_OUT:-$ROOT/bench/out}"
mkdir -p "$OUT"
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# find_shared: sets SHARED to the shared corpus directory (../shared beside the repository or
# above it) unless it is set already; stops with a message when there is none.
find_shared() {
  if [[ -z "${SHARED:-}" ]]; then
    local d=$ROOT
    while [[ "$d" != / ]]; do d=$(dirname "$d"); [[ -d "$d/shared/corpus" ]] && { SHARED="$d/shared"; break; }; done
  fi
  : "${SHARED:?set SHARED to the shared corpus directory}"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

wait_http() { # url
  for _ in $(seq 1 100); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "server at $1 did not come up" >&2; return 1
}

# The tree whose server is measured: this one, or BENCH_TREE (bench/compare.sh sets it to a
# checkout of another revision, already built); its release binary, started in that tree.
TREE="${BENCH_TREE:-$ROOT}"
BIN="$TREE/.build/release/inksticker"
export INKSTICKER_MIGRATIONS="$TREE/Migrations"

build_release() {
  (cd "$ROOT" && scripts/deps.sh nginx wrk curl python3 >&2)
  (cd "$TREE" && swift build -c release --product inksticker >&2)
}

# start_inksticker PORT [args...]: starts the release build with a fresh database in $OUT.
start_inksticker() {
  local port=$1 name=${BENCH_DB:-bench}; shift
  rm -f "$OUT/$name.sqlite"*
  (cd "$TREE" && OMP_THREAD_LIMIT=1 exec "$BIN" serve --port "$port" --db "$OUT/$name.sqlite" "$@" >"$OUT/inksticker-$name.log" 2>&1) &
  PIDS+=($!)
  wait_http "http://127.0.0.1:$port/healthz"
}

# start_nginx PORT DOCROOT: one worker process, keep-alive without a request cap, access log on (as ours).
start_nginx() {
  local port=$1 root=$2
  mkdir -p "$OUT/nginx"
  cat >"$OUT/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/error.log;
events { worker_connections 4096; }
http {
  access_log $OUT/nginx/access.log;
  keepalive_requests 10000000;
  types { application/json json; image/svg+xml svg; }
  server {
    listen 127.0.0.1:$port;
    root $root;
    location / { default_type application/json; }
  }
}
CONF
  nginx -c "$OUT/nginx/nginx.conf" -g 'daemon off;' &
  PIDS+=($!)
  sleep 0.3
}

# run_wrk NAME URL [wrk args...]: prints "NAME req/s p50 p99" (ms) and keeps the raw output.
run_wrk() {
  local name=$1 url=$2; shift 2
  wrk "$@" --latency "$url" >"$OUT/wrk-$name.txt" 2>&1
  python3 - "$OUT/wrk-$name.txt" "$name" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", v)
    if not m: sys.exit(f"cannot read wrk latency '{v}' in {sys.argv[1]}")
    n = float(m.group(1))
    return {"us": n / 1000, "ms": n, "s": n * 1000, "m": n * 60000}[m.group(2)]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1)); p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{sys.argv[2]} {rps:.0f} {p50:.3f} {p99:.3f} {errors.group(1) if errors else 0}")
PY
}

# start_postgres: a throw-away PostgreSQL cluster in $OUT/postgres (scripts/postgres.sh installs
# the server when missing), stopped on exit; sets PG_CONN to its connection string.
start_postgres() {
  rm -rf "$OUT/postgres"
  PG_CONN="$("$ROOT/scripts/postgres.sh" start "$OUT/postgres")"
  trap '"$ROOT/scripts/postgres.sh" stop "$OUT/postgres"; cleanup' EXIT
}
