#!/usr/bin/env bash
# Builds pxview and pxbench as users get them (scripts/release-flags.sh) and
# runs the benchmark; arguments go to pxbench (--box WxH, --runs N, --per-photo,
# --markdown, files...). --large is on here: 12, 24 and 50 MP JPEGs, made once
# in the temporary directory (--no-large leaves them out), and so is --preview
# (a file manager's preview: a 1920x1280 JPEG into a 50x30-cell pane), and
# --colour (a 20 MP JPEG with an Adobe RGB profile against it untagged;
# pxbench --colour-only measures it alone).
# chafa, img2sixel and timg are compared when installed (apt: chafa
# libsixel-bin timg); peak RSS is read with GNU time (apt: time).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/release-flags.sh
swift build "${release_flags[@]}" >&2
exec .build/release/pxbench --large --preview --colour "$@"
