#!/usr/bin/env bash
# Builds pxview (release, as scripts/run.sh does) and installs it under a
# prefix: bin/pxview, share/man/man1/pxview.1 and the bash, zsh and fish
# completions, all made by the binary from its table of commands.
#   scripts/install.sh [--prefix DIR] [--binary PATH]
# --prefix: default ~/.local. --binary: install that pxview instead of building.
# Safe to re-run: every file is replaced whole, nothing else is touched.
set -euo pipefail
usage() { echo "usage: scripts/install.sh [--prefix DIR] [--binary PATH]" >&2; exit 2; }
prefix="$HOME/.local"
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --binary) [ $# -ge 2 ] || usage; binary=$2; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/install.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$prefix" ] || usage
# Relative paths are the caller's, before the cd below.
case $prefix in /*) ;; *) prefix="$PWD/$prefix" ;; esac
case $binary in ""|/*) ;; *) binary="$PWD/$binary" ;; esac
cd "$(dirname "$0")/.."
if [ -z "$binary" ]; then
  source scripts/ensure-deps.sh
  source scripts/release-flags.sh
  swift build "${release_flags[@]}" --product pxview >&2
  binary="$PWD/.build/release/pxview"
fi
[ -x "$binary" ] || { echo "scripts/install.sh: no pxview binary at $binary" >&2; exit 1; }

# put DEST MODE COMMAND...: COMMAND's output becomes DEST, whole or not at all.
put() {
  local dest=$1 mode=$2 tmp
  shift 2
  mkdir -p "$(dirname "$dest")"
  tmp=$(mktemp "$dest.XXXXXX")
  # An interrupted install leaves no DEST.XXXXXX behind.
  trap 'rm -f "$tmp"' EXIT
  if ! "$@" >"$tmp"; then rm -f "$tmp"; echo "scripts/install.sh: '$*' failed" >&2; exit 1; fi
  chmod "$mode" "$tmp"
  mv -f "$tmp" "$dest"
  trap - EXIT
  echo "installed $dest"
}

pxview="$prefix/bin/pxview"
put "$pxview" 755 cat "$binary"
put "$prefix/share/man/man1/pxview.1" 644 "$pxview" man
put "$prefix/share/bash-completion/completions/pxview" 644 "$pxview" completions bash
put "$prefix/share/zsh/site-functions/_pxview" 644 "$pxview" completions zsh
put "$prefix/share/fish/vendor_completions.d/pxview.fish" 644 "$pxview" completions fish

case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on PATH" ;; esac
echo "note: zsh reads _pxview from a folder on \$fpath: fpath=($prefix/share/zsh/site-functions \$fpath) before compinit"
