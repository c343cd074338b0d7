#!/usr/bin/env bash
# Browser test of the web page (Public/): headless Chromium, driven by Selenium, against a real server.
#
#   e2e/browser/run.sh              # installs what is missing, builds (debug), runs the test
#
# Installs Debian's chromium and chromium-driver when missing (apt-get; sudo when not root) and
# Selenium (requirements.txt) into e2e/browser/.venv. Builds the debug executable unless
# INKSTICKER_BIN names one, serves it on a free port with a temporary database, runs test_page.py,
# stops the server. Screenshots go to e2e/browser/out/ (git-ignored), or to $INKSTICKER_BROWSER_OUT.
# Exits non-zero when a check fails; the last line reads "browser: N passed, N failed".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

# 1. Chromium, its WebDriver and Python venv support, from Debian (with the base packages).
scripts/deps.sh python3-venv chromium chromium-driver

venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" 2>/dev/null || rm -rf "$venv"
fi
if [ -x "$venv/bin/python" ]; then
  python="$venv/bin/python"
  "$python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt"
else
  python="python3"
  "$python" -m pip install -q --disable-pip-version-check --user -r "$here/requirements.txt"
fi

# 3. The server.
if [ -n "${INKSTICKER_BIN:-}" ]; then
  bin="$INKSTICKER_BIN"
else
  swift build --product inksticker
  bin="$(swift build --show-bin-path)/inksticker"
fi

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

OMP_THREAD_LIMIT=1 "$bin" serve --host 127.0.0.1 --port 0 --db "$tmp/db.sqlite" >"$tmp/server.log" 2>&1 &
server_pid=$!

port=""
for _ in $(seq 1 300); do
  port="$(grep -o '"msg":"listening"[^}]*"port":"[0-9]*"' "$tmp/server.log" 2>/dev/null | grep -o '"port":"[0-9]*"' | grep -o '[0-9]*' || true)"
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "the server exited:" >&2; cat "$tmp/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start listening within 30 s:" >&2; cat "$tmp/server.log" >&2; exit 1; }
base="http://127.0.0.1:$port"
for _ in $(seq 1 300); do
  python3 -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('$base/readyz', timeout=2).status == 200 else 1)" 2>/dev/null && break
  sleep 0.1
done
echo "server: $base (database $tmp/db.sqlite)"

# 4. The test, bounded in time.
status=0
timeout --kill-after=10 170 "$python" "$here/test_page.py" --base-url "$base" --out "${INKSTICKER_BROWSER_OUT:-$here/out}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- server log (last 40 lines) ---" >&2
  tail -n 40 "$tmp/server.log" >&2
fi
exit "$status"
