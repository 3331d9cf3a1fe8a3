#!/usr/bin/env bash
# Installs what is missing and runs every test (unit, pty and local-HTTP tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build "$@"
