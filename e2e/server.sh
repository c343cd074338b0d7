# Sourced by the e2e scripts: the server under test and the Python tools that drive it.
#   start_server BIN DIR [serve options...]   starts it on a free port, database and log in DIR, and
#                                             waits until it is ready; sets server_pid and base.
#                                             With INKSTICKER_TEST_POSTGRES (a connection string of a
#                                             cluster the suite started) the database is a fresh schema there
#   test_database DIR                         prints that database: DIR/db.sqlite or a new schema
#   stop_server                               SIGTERM, then SIGKILL after 5 s
# Debian's libtesseract uses OpenMP, which must be limited to one thread at process start.
test_database() {
  if [ -z "${INKSTICKER_TEST_POSTGRES:-}" ]; then echo "$1/db.sqlite"; return; fi
  local schema="t_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  psql "$INKSTICKER_TEST_POSTGRES" -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $schema" >&2
  echo "$INKSTICKER_TEST_POSTGRES options='-c search_path=$schema'"
}

start_server() {
  local bin="$1" dir="$2" port="" db
  shift 2
  db="$(test_database "$dir")"
  OMP_THREAD_LIMIT=1 "$bin" serve --host 127.0.0.1 --port 0 --db "$db" "$@" >"$dir/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 300); do
    port="$(sed -n 's/.*"msg":"listening".*"port":"\([0-9]*\)".*/\1/p' "$dir/server.log" | head -n 1)"
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$dir/server.log" >&2; echo "the server exited" >&2; return 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$dir/server.log" >&2; echo "the server did not log its port within 30 s" >&2; return 1; }
  base="http://127.0.0.1:$port"
  for _ in $(seq 1 300); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && return 0
    sleep 0.1
  done
  echo "the server at $base did not become ready within 30 s" >&2
  return 1
}

stop_server() {
  if [ -n "${server_pid:-}" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
}

# A Python virtualenv in VENV with REQUIREMENTS installed; reinstalls when the pinned version of
# PACKAGE (a line `PACKAGE==version` of REQUIREMENTS) is not what the venv has.
#   ensure_venv VENV REQUIREMENTS PACKAGE
ensure_venv() {
  local venv="$1" requirements="$2" package="$3"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/pip" freeze 2>/dev/null | grep -qixF "$(grep -i "^$package==" "$requirements")"; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  fi
}
