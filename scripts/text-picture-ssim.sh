#!/usr/bin/env bash
# The text picture against chafa's in a real stock xterm (no sixel, so
# `--protocol auto` draws text): each photo at 96x36 cells, screenshot,
# SSIM against the source (scripts/picture-ssim.py) and the row-seam score
# (scripts/row-seams.py) of pxview's and chafa's (`chafa -f symbols -c full`).
#   scripts/text-picture-ssim.sh [--pxview PATH] [--term xterm|kitty] [--protocol P] [--out DIR] [PHOTO...]
# Needs the termtools (TERMTOOLS, default /work/shared/termtools), chafa and
# Debian's python3-pil/python3-numpy (/usr/bin/python3). Default photos: the
# raindrop (the catalog's aqua.jpg), the China and storm fixtures.
set -euo pipefail
cd "$(dirname "$0")/.."
termtools=${TERMTOOLS:-/work/shared/termtools}
pxview=.build/release/pxview
term=xterm
protocol=auto
out=$(mktemp -d)
while [ $# -gt 0 ]; do
  case "$1" in
    --pxview) pxview=$2; shift 2 ;;
    --term) term=$2; shift 2 ;;
    --protocol) protocol=$2; shift 2 ;;
    --out) out=$2; mkdir -p "$out"; shift 2 ;;
    *) break ;;
  esac
done
photos=("$@")
[ ${#photos[@]} -gt 0 ] || photos=(Sources/Pixabay/Catalog/large/aqua.jpg Tests/Fixtures/images/p01_china_640x427.jpg
  Tests/Fixtures/images/p03_storm_1920x1280.jpg)
# xterm: 9x19-px cells after a 2-px border (stock: Debian's VT420, no sixel); kitty: 9x18 at 0,0.
if [ "$term" = xterm ]; then shot=(--term xterm --stock); cell=9x19; origin=2,2; else shot=(--term "$term"); cell=9x18; origin=0,0; fi
printf '%-28s %-8s %8s %8s %s\n' photo tool ssim seams "(cell top rows / others)"
for photo in "${photos[@]}"; do
  name=$(basename "${photo%.*}")
  for tool in pxview chafa; do
    if [ $tool = pxview ]; then command=("$pxview" show --once --protocol "$protocol" --cells 96x36 "$photo")
    else command=(chafa -f symbols -c full --size 96x36 "$photo"); fi
    "$termtools/termshot.sh" "${shot[@]}" --size 100x40 --wait-exit 20 -q --out "$out/$name-$tool.png" -- "${command[@]}" \
      >/dev/null 2>&1
    # Scored once: the SSIM and the picture's height in cell rows.
    read -r ssim rows < <(/usr/bin/python3 scripts/picture-ssim.py "$out/$name-$tool.png" "$photo" --json \
      | /usr/bin/python3 -c "import json,sys; r=json.load(sys.stdin); print(r['ssim'], r['box'][3] // ${cell#*x})")
    seams=$(/usr/bin/python3 scripts/row-seams.py "$out/$name-$tool.png" --cell "$cell" --origin "$origin" --rows "$rows" --columns 96)
    printf '%-28s %-8s %8s %s\n' "$name" "$tool" "$ssim" "$seams"
  done
done
echo "screenshots: $out"
