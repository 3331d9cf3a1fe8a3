#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages pxview builds against, only when missing.
# Safe to re-run; uses sudo when not root. The Swift toolchain itself must be
# on PATH (https://www.swift.org/install/linux/).
set -euo pipefail
# The image libraries come from the codec table (one `packages:` line per
# format in Sources/Decoding/CodecTable.swift); the rest are HTTP's, the
# PNG writer's and the colour step's (lcms2).
codecs="$(dirname "${BASH_SOURCE[0]}")/../Sources/Decoding/CodecTable.swift"
mapfile -t codec_packages < <(grep -o 'packages: \[[^]]*\]' "$codecs" | grep -o '"[^"]*"' | tr -d '"')
[ ${#codec_packages[@]} -gt 0 ] || { echo "ensure-deps: no packages found in $codecs" >&2; exit 1; }
packages=(libcurl4-openssl-dev "${codec_packages[@]}" zlib1g-dev liblcms2-dev pkg-config)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  for attempt in 1 2 3 4 5; do   # another apt may hold the lock for a while
    if $sudo apt-get update -q >&2 && $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then break; fi
    [ "$attempt" -eq 5 ] && { echo "apt-get failed" >&2; exit 1; }
    echo "apt-get failed (lock?), retrying in 15 s" >&2; sleep 15
  done
fi
if ! command -v swift >/dev/null 2>&1; then
  for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$d/swift" ] && export PATH="$d:$PATH"; done
  command -v swift >/dev/null 2>&1 || { echo "swift not found: install the Swift 6 toolchain (https://www.swift.org/install/linux/)" >&2; exit 1; }
fi
