#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and under ThreadSanitizer, each build in its
# own scratch directory (.build/asan, .build/tsan) so neither disturbs the normal .build.
#
# Usage: scripts/sanitize.sh [address] [thread] [-- extra 'swift test' arguments]
#   default: both; e.g. scripts/sanitize.sh thread -- --filter StoreTests
#
# AddressSanitizer runs with leak detection on. scripts/sanitize-lsan.supp suppresses leaks
# whose allocation stack lies entirely in the toolchain's own runtime libraries (see the
# file); a leak with any frame of ours is reported. ThreadSanitizer runs with no suppressions.
# The code locks with the pthread-based Locking module, not Synchronization.Mutex, because TSan
# intercepts pthread mutexes but cannot see Mutex's futex-based locking on Linux.
# Tests that bound a duration scale the bound by the sanitizer's slowdown (SanitizerSlowdown).
# The suite is written with Swift Testing; while no test imports XCTest, the XCTest pass is
# skipped, since XCTest's runner leaks some of its own bookkeeping even with zero tests.
# Each run's full output is kept in .build/<asan|tsan>/sanitize.log; the script prints every
# sanitizer report it finds and exits non-zero when a build fails, a test fails, or a report
# appears.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/deps.sh python3

kinds=()
extra=()
while (($#)); do
  case "$1" in
    address|thread) kinds+=("$1") ;;
    --) shift; extra=("$@"); break ;;
    *) echo "usage: scripts/sanitize.sh [address] [thread] [-- swift test arguments]" >&2; exit 2 ;;
  esac
  shift
done
((${#kinds[@]})) || kinds=(address thread)

if ! grep -rqs --include='*.swift' '^import XCTest' Tests; then
  extra=(--disable-xctest ${extra[@]+"${extra[@]}"})
fi

# ExecutableTests launch .build/debug/inksticker, the plain build (they test the program's
# behaviour, not its memory): make sure it exists and is current.
swift build --product inksticker >/dev/null

# The Swift runtime's crash backtracer would race the sanitizers' own reports.
export SWIFT_BACKTRACE=enable=no
status=0
summary=()
for kind in "${kinds[@]}"; do
  case "$kind" in
    address)
      scratch=.build/asan
      export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
      export LSAN_OPTIONS="suppressions=$PWD/scripts/sanitize-lsan.supp:print_suppressions=1"
      pattern='ERROR: (AddressSanitizer|LeakSanitizer)|SUMMARY: (AddressSanitizer|LeakSanitizer)'
      ;;
    thread)
      scratch=.build/tsan
      # Keep going after a report so one run lists every race; the exit code still says so.
      export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:history_size=4"
      pattern='WARNING: ThreadSanitizer|SUMMARY: ThreadSanitizer'
      ;;
  esac
  mkdir -p "$scratch"
  log="$scratch/sanitize.log"
  echo "== $kind: building in $scratch" >&2
  if ! swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" >"$log" 2>&1; then
    tail -40 "$log" >&2
    summary+=("$kind: BUILD FAILED (see $log)")
    status=1
    continue
  fi
  echo "== $kind: testing" >&2
  set +e
  swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" ${extra[@]+"${extra[@]}"} >>"$log" 2>&1
  rc=$?
  set -e
  reports=$(grep -cE "$pattern" "$log" || true)
  if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
    status=1
    grep -nE "$pattern|✘|error:" "$log" | head -60 >&2 || true
    summary+=("$kind: FAILED (exit $rc, $reports sanitizer report line(s)); see $log")
  else
    result=$(grep -oE 'Test run with [0-9]+ tests? in [0-9]+ suites? passed' "$log" | tail -1 || true)
    summary+=("$kind: clean (${result:-no Swift Testing summary found})")
  fi
  unset ASAN_OPTIONS LSAN_OPTIONS TSAN_OPTIONS
done

printf '%s\n' "${summary[@]}"
exit "$status"
