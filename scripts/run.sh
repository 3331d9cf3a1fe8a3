#!/usr/bin/env bash
# Builds pxview (release) and runs it. With no arguments it opens the explorer
# on the offline catalog (or, without a terminal, prints the catalog as a
# table). Any arguments go to pxview: scripts/run.sh show photo.jpg
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/release-flags.sh
swift build "${release_flags[@]}" --product pxview >&2
if [ $# -gt 0 ]; then exec .build/release/pxview "$@"; fi
if [ -t 0 ] && [ -t 1 ]; then exec .build/release/pxview --offline; fi
exec .build/release/pxview search --offline
