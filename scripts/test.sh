#!/usr/bin/env bash
# Runs the whole test suite: unit tests, live-socket tests, end-to-end tests with real Tesseract and SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/deps.sh python3
swift build --build-tests
swift test --skip-build
