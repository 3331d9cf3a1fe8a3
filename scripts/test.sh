#!/usr/bin/env bash
# Installs what is missing and runs every test (unit, pty and local-HTTP tests).
#   scripts/test.sh [--sanitize address|thread] [swift test options...]
# With --sanitize the whole suite runs under that sanitizer, built in its own
# scratch folder so sanitized objects never mix with the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
build=()
if [ "${1:-}" = "--sanitize" ]; then
  [ $# -ge 2 ] || { echo "usage: scripts/test.sh [--sanitize address|thread]" >&2; exit 2; }
  build=(--sanitize "$2" --scratch-path ".build/sanitize-$2")
  # Foundation's own leaks (see the file) are not ours; any other leak fails.
  export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
  shift 2
fi
swift build --build-tests "${build[@]}"
# Every suite uses Swift Testing; without XCTest no "Executed 0 tests" line
# precedes the real summary.
swift test --skip-build --disable-xctest "${build[@]}" "$@"
