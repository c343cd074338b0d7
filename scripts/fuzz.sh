#!/usr/bin/env bash
# Builds the libFuzzer targets under fuzz/targets/ with AddressSanitizer and runs each for a
# bounded time, starting from the committed seeds in fuzz/corpus/<target>/.
#
# Usage: scripts/fuzz.sh [seconds-per-target] [target ...]
#   targets: http-request (HTTP/1.1 request parser, whole and split input),
#            json-ink (JSON reader round trip + ink decoder), inkml (InkML reader)
#   default: 60 seconds each, all targets.
#
# Each target is compiled from the module sources it exercises plus a small entry file
# (swiftc -sanitize=fuzzer,address), so nothing in Package.swift changes. Everything written
# goes to fuzz/out/ (ignored by git): binaries in build/, the growing working corpus in
# corpus/<target>/ (seeded from the committed one on every run), crash and timeout artefacts
# in artifacts/<target>/, logs in logs/. Prints executions per target; exits non-zero when any
# target crashed, leaked, timed out or failed to build.
#
# Environment: FUZZ_FLAGS adds libFuzzer flags (e.g. "-jobs=2 -workers=2");
#              FUZZ_SKIP_BUILD=1 reuses the binaries already in fuzz/out/build/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(http-request json-ink inkml)

out=fuzz/out
build=$out/build
mkdir -p "$build" "$out/logs"
swiftc_flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -use-ld=lld)

http=Sources/HTTPServer
ink=Sources/Ink

# JSONKit as its own module, as in the package, so the Ink sources keep their `import JSONKit`.
build_jsonkit() {
  mkdir -p "$build/jsonkit"
  swiftc "${swiftc_flags[@]}" -module-name JSONKit -emit-module \
    -emit-module-path "$build/jsonkit/JSONKit.swiftmodule" -emit-library -static \
    -o "$build/jsonkit/libJSONKit.a" Sources/JSONKit/*.swift
}

# Geometry (Point, Rect) as its own module too, for the Ink sources' `import Geometry`.
build_geometry() {
  mkdir -p "$build/geometry"
  swiftc "${swiftc_flags[@]}" -module-name Geometry -emit-module \
    -emit-module-path "$build/geometry/Geometry.swiftmodule" -emit-library -static \
    -o "$build/geometry/libGeometry.a" Sources/Geometry/*.swift
}

build_target() {
  case "$1" in
    http-request)
      swiftc "${swiftc_flags[@]}" -module-name HTTPRequestFuzz \
        "$http/HTTPRequestParser.swift" "$http/HTTPRequestParser+Body.swift" "$http/HTTPHeadParser.swift" \
        "$http/HTTPParseError.swift" "$http/HTTPParserLimits.swift" "$http/HTTPRequest.swift" \
        "$http/HTTPHeaders.swift" "$http/HTTPMethod.swift" "$http/HTTPSyntax.swift" "$http/HTTPVersion.swift" \
        "$http/HTTPStatus.swift" "$http/HTTPAdmission.swift" fuzz/targets/HTTPRequestParserFuzz.swift -o "$build/http-request"
      ;;
    json-ink)
      build_jsonkit
      build_geometry
      swiftc "${swiftc_flags[@]}" -module-name InkJSONFuzz -I "$build/jsonkit" -L "$build/jsonkit" -lJSONKit \
        -I "$build/geometry" -L "$build/geometry" -lGeometry \
        "$ink/InkDecoder.swift" "$ink/InkDecoder+Stroke.swift" "$ink/InkDecodingError.swift" "$ink/InkLimits.swift" \
        "$ink/Stroke.swift" "$ink/AffineTransform.swift" \
        fuzz/targets/InkJSONFuzz.swift -o "$build/json-ink"
      ;;
    inkml)
      build_jsonkit
      build_geometry
      swiftc "${swiftc_flags[@]}" -module-name InkMLFuzz -I "$build/jsonkit" -L "$build/jsonkit" -lJSONKit \
        -I "$build/geometry" -L "$build/geometry" -lGeometry \
        "$ink"/InkML*.swift "$ink/XMLScanner.swift" "$ink"/XMLScanner+*.swift "$ink/InkLimits.swift" \
        "$ink/Stroke.swift" "$ink/AffineTransform.swift" \
        fuzz/targets/InkMLFuzz.swift -o "$build/inkml"
      ;;
    *)
      echo "unknown target '$1' (expected http-request, json-ink or inkml)" >&2
      return 1
      ;;
  esac
}

# The Swift runtime's own backtracer would only slow crash reports down; ASan prints the stack.
export SWIFT_BACKTRACE=enable=no
# Leak detection stays on: the targets allocate only through Swift, so a report is ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}

status=0
summary=()
for target in "${targets[@]}"; do
  log="$out/logs/$target.log"
  if [ "${FUZZ_SKIP_BUILD:-0}" != 1 ]; then
    echo "== building $target" >&2
    if ! build_target "$target" 2>"$out/logs/$target.build.log"; then
      cat "$out/logs/$target.build.log" >&2
      summary+=("$target: BUILD FAILED")
      status=1
      continue
    fi
  fi
  corpus="$out/corpus/$target"
  artifacts="$out/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  cp -n fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  dict=()
  [ -f "fuzz/dict/$target.dict" ] && dict=(-dict="fuzz/dict/$target.dict")
  # The request target's limits stop any head or body past 2 KiB, and it parses every input
  # three times (once byte by byte): longer inputs would only slow it down.
  max_len=8192
  [ "$target" = http-request ] && max_len=2048

  echo "== fuzzing $target for ${seconds}s" >&2
  marker="$out/logs/$target.started"
  touch "$marker"
  set +e
  # shellcheck disable=SC2086
  "$build/$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{sum += $2} END {print sum + 0}')
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | awk '{sum += $2} END {print sum + 0}')
  found=$(find "$artifacts" -type f -newer "$marker" \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    summary+=("$target: FAILED (exit $rc, $found artefact(s) in $artifacts), $runs executions; see $log")
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -20 >&2 || true
  else
    summary+=("$target: ok, $runs executions in ${seconds}s ($speed/s), corpus $(find "$corpus" -type f | wc -l) inputs")
  fi
done

printf '%s\n' "${summary[@]}"
exit "$status"
