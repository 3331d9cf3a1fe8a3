#!/usr/bin/env bash
# Builds the libFuzzer targets (Sources/pxfuzz, with ASan) and runs them:
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     default: every target, 60 s each
# Targets: decode input probe json cache url readback screens gif webp avif
# heic jxl (each newer row of the codec table alone) animation (GIF, WebP and
# HEIF grids built from the input: canvases, frame rectangles, frame counts)
# colour (ICC profiles through lcms2, colour descriptions read from containers). Seeds come from
# Tests/Fixtures and the catalog; a crash is saved under fuzz-crashes/TARGET/
# and the script exits 1 (turn it into a regression fixture in the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
which=${1:-all}
seconds=${2:-60}
all=(decode input probe json cache url readback screens gif webp avif heic jxl animation colour)
if [ "$which" = all ]; then targets=("${all[@]}"); else targets=("$which"); fi
# Its own scratch path: sanitized objects never mix with the normal build.
PXVIEW_FUZZ=1 swift build --scratch-path .build/fuzz --product pxfuzz --sanitize fuzzer --sanitize address 2>&1 \
  | grep -v "Cannot export local symbol" >&2
binary=.build/fuzz/debug/pxfuzz

seed() {  # seed TARGET DIR
  local dir=$2
  case $1 in
    decode)
      find Tests/Fixtures/images Tests/Fixtures/bad Tests/Fixtures/sampling Tests/Fixtures/colour Tests/Fixtures/exif -type f \( -name '*.jpg' -o -name '*.png' \) -size -600k \
        -exec cp {} "$dir/" \; ;;
    input)
      printf 'q' >"$dir/key"; printf '\033[A\033OB\033[1;5C' >"$dir/arrows"
      printf '\033[<0;10;5M\033[<64;3;4m' >"$dir/mouse"; printf '\033[200~pasted\033[201~' >"$dir/paste"
      printf '\303\251\033x\003' >"$dir/utf8"; printf '\033[6;18;9t\033[I\033[O' >"$dir/reports" ;;
    probe)
      printf '\033_Gi=31;OK\033\\\033P>|kitty(0.26.5)\033\\\033]11;rgb:0000/0000/0000\033\\\033[6;18;9t\033[?2026;2$y\033[?62;c' >"$dir/kitty"
      printf '\033[?1;0;256S\033[?2;0;1000;1000S\033[?63;1;2;4;6;9;15;16;22;28c' >"$dir/xterm"
      printf 'j\033[B\033[?1;3;0S\033[?62;c' >"$dir/typed" ;;
    json)
      cp Sources/Pixabay/Catalog/catalog.json "$dir/"
      printf '{"total":1,"totalHits":1,"hits":[{"id":1,"tags":"a","user":"b","imageWidth":2,"imageHeight":3}]}' >"$dir/one" ;;
    cache)
      printf 'PXR1\020\000\000\000application/json{}' >"$dir/response"
      printf 'PXC1\000\000\000\000\000\000\000\000\002\000\000\000\000\000\000\000' >"$dir/entry" ;;
    url)
      printf 'https://pixabay.com/api/?q=cat&key=secret123&page=2' >"$dir/api"
      printf 'http://user:pw@127.0.0.1:8080/a%%20b?key=x#frag' >"$dir/auth"; printf 'file:///tmp/a%%20b.jpg' >"$dir/file" ;;
    gif|webp|avif|heic|jxl)
      find Tests/Fixtures/formats Tests/Fixtures/colour -type f -name "*.$1" -exec cp {} "$dir/" \; ;;
    colour)
      cp Tests/Fixtures/colour/*.jpg Tests/Fixtures/colour/*.png Tests/Fixtures/colour/*.webp "$dir/"
      cp Tests/Fixtures/colour/*.avif Tests/Fixtures/colour/*.heic Tests/Fixtures/colour/*.icc "$dir/"
      for f in /usr/share/color/icc/compatibleWithAdobeRGB1998.icc /usr/share/color/icc/sRGB.icc; do
        [ -f "$f" ] && cp "$f" "$dir/"
      done ;;
    animation)
      printf '\000\047\020\047\020\001\000\000\000\000\000\001\000\001' >"$dir/gif"
      printf '\001\000\001\000\001\001\001\000\002' >"$dir/webp"; printf '\002\000\000\000\000\000\020\000\020\000' >"$dir/grid" ;;
    screens)
      printf 'lljjk+++--z\r/cats\033x?q' >"$dir/keys"; printf '\377\033[200~aaaaaaaaaaaaaaaa\033[201~' >"$dir/pastes"
      printf '/\033[200~\342\200\256\344\270\255\033[201~\r' >"$dir/wide"; printf '\033[<0;10;5M\033[<64;3;4m\033[<0;10;5m' >"$dir/mouse" ;;
    readback)
      printf '\033P0;1;0q"1;1;4;6#0;2;100;0;0#0!4~-#0~~\033\\' >"$dir/sixel"
      printf '\033_Ga=T,f=32,s=1,v=1;AAAA/w==\033\\' >"$dir/kitty" ;;
  esac
}

failed=0
for target in "${targets[@]}"; do
  corpus=$(mktemp -d)
  seed "$target" "$corpus"
  mkdir -p "fuzz-crashes/$target"
  echo "fuzz $target for ${seconds}s" >&2
  if ! PXFUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="fuzz-crashes/$target/" -print_final_stats=1 "$corpus" 2>"fuzz-crashes/$target/log.txt"; then
    echo "fuzz $target: CRASH, see fuzz-crashes/$target/" >&2
    tail -30 "fuzz-crashes/$target/log.txt" >&2
    failed=1
  else
    grep -E '^stat::number_of_executed_units' "fuzz-crashes/$target/log.txt" >&2 || true
    rm -f "fuzz-crashes/$target/log.txt"
    rmdir "fuzz-crashes/$target" 2>/dev/null || true
  fi
  rm -rf "$corpus"
done
rmdir fuzz-crashes 2>/dev/null || true
exit $failed
