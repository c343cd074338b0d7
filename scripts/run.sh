#!/usr/bin/env bash
# Starts InkSticker on the embedded default: ./data/inksticker.sqlite, http://127.0.0.1:8080.
# Extra arguments go to 'inksticker serve' (see 'inksticker --help').
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
# curl and jq are not the server's: the README's API examples use them.
scripts/deps.sh curl jq
swift build -c release --product inksticker
# The database holds token hashes and ink: keep it private to this user.
umask 077
mkdir -p data
# Debian's libtesseract uses OpenMP, which must be limited to one thread at process start.
export OMP_THREAD_LIMIT=1
# Installed and built: say how to start this server again without either.
again=".build/release/inksticker serve"
(($#)) && again+=" $(printf '%q ' "$@")"
echo "scripts/run.sh: starting the release build. To start it again without installing or building, from $PWD:" >&2
echo "  ${again% }    (options: .build/release/inksticker --help)" >&2
exec .build/release/inksticker serve "$@"
