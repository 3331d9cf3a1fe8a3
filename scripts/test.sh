#!/usr/bin/env bash
# Installs what is missing and runs every test (unit, pty and local-HTTP tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build --build-tests
# Every suite uses Swift Testing; without XCTest no "Executed 0 tests" line
# precedes the real summary.
swift test --skip-build --disable-xctest "$@"
