#!/usr/bin/env bash
# HTTP edges against a live server (e2e/http/check_edges.py): lingering close after an early
# 413, and httplint on every kind of response; then the README's API blocks, run as they are
# (e2e/http/readme_blocks.py, needs curl and jq). Installs httplint (requirements.txt) into
# e2e/http/.venv. INKSTICKER_BIN names the server binary (default: the debug build, built if missing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
venv="${HTTP_EDGES_VENV:-$here/.venv}"
source "$here/../server.sh"
ensure_venv "$venv" "$here/requirements.txt" httplint
if [ -z "${INKSTICKER_BIN:-}" ]; then
    [ -x .build/debug/inksticker ] || swift build --product inksticker
    export INKSTICKER_BIN="$root/.build/debug/inksticker"
fi
status=0
"$venv/bin/python" "$here/check_edges.py" || status=$?
python3 "$here/readme_blocks.py" || status=$?
exit "$status"
