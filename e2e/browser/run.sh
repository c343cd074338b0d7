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
source "$here/../server.sh"
cleanup() {
  stop_server
  rm -rf "$tmp"
}
trap cleanup EXIT
start_server "$bin" "$tmp"
echo "server: $base (database $tmp/db.sqlite)"

# 4. The test, bounded in time. Chromium and its driver keep their temporary profiles and
# singleton sockets under TMPDIR: inside $tmp, so that they go with it.
mkdir -p "$tmp/browser"
status=0
INKSTICKER_BIN="$bin" TMPDIR="$tmp/browser" timeout --kill-after=10 240 "$python" "$here/test_page.py" --base-url "$base" --out "${INKSTICKER_BROWSER_OUT:-$here/out}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- server log (last 40 lines) ---" >&2
  tail -n 40 "$tmp/server.log" >&2
fi
exit "$status"
