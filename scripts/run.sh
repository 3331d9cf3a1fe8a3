#!/usr/bin/env bash
# Builds pxview (release) and runs it; with no arguments it opens the offline
# catalog. Any arguments are passed to pxview: scripts/run.sh show photo.jpg
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build -c release --product pxview >&2
exec .build/release/pxview "$@"
