#!/usr/bin/env bash
# Builds pxview and pxbench as users get them (scripts/release-flags.sh) and
# runs the benchmark; arguments go to pxbench (--box WxH, --runs N, files).
# chafa and img2sixel are compared when installed (apt: chafa libsixel-bin).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/release-flags.sh
swift build "${release_flags[@]}" >&2
exec .build/release/pxbench "$@"
