#!/usr/bin/env bash
# Regenerates the committed test images under Tests/Fixtures with standard tools (ImageMagick, cwebp, cjxl,
# gif2webp, img2webp). Each format has its own script in Scripts/fixtures/; this one makes the shared source
# images they start from, then runs them all. Output is deterministic: metadata and timestamps are stripped.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v convert >/dev/null 2>&1 && [[ -x /usr/bin/convert ]] || need+=(imagemagick)
command -v cwebp >/dev/null 2>&1 || need+=(webp)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [[ ${#need[@]} -gt 0 ]]; then
  Scripts/setup.sh "${need[@]}"
fi

export FIXTURES="$PWD/Tests/Fixtures"
export SOURCE="$FIXTURES/source"
mkdir -p "$SOURCE"

# PNG written without time chunks so that the bytes do not change between runs.
# Usage: png CONVERT-ARGS... OUTPUT
png() { convert "${@:1:$#-1}" -strip -define png:exclude-chunks=date,time "${@: -1}"; }
export -f png

# The quadrant images every format starts from: 64 x 48, top-left red, top-right green, bottom-left blue,
# bottom-right white (opaque), transparent (alpha) or half-transparent red (semi).
png -size 32x24 xc:'#ff0000' xc:'#00ff00' +append \( -size 32x24 xc:'#0000ff' xc:'#ffffff' +append \) -append \
  -type TrueColor "PNG24:$SOURCE/quad.png"
png -size 32x24 xc:'#ff0000' xc:'#00ff00' +append \( -size 32x24 xc:'#0000ff' xc:none +append \) -append \
  -type TrueColorAlpha "PNG32:$SOURCE/quad-alpha.png"
png -size 32x24 xc:'#ff0000' xc:'#00ff00' +append \( -size 32x24 xc:'#0000ff' xc:'rgba(255,0,0,0.5)' +append \) -append \
  -type TrueColorAlpha "PNG32:$SOURCE/quad-semi.png"
# Four solid frames for animations: red, green, blue, white, 32 x 24.
for c in ff0000:red 00ff00:green 0000ff:blue ffffff:white; do
  png -size 32x24 "xc:#${c%%:*}" -type TrueColor "PNG24:$SOURCE/frame-${c##*:}.png"
done
# A photo-like image (smooth gradients and detail) for round trips and thumbnails: 320 x 240.
png -size 320x240 -seed 7 plasma:red-blue -blur 0x1 -type TrueColor "PNG24:$SOURCE/photo.png"

shopt -s nullglob
for script in Scripts/fixtures/*.sh; do
  echo "make-fixtures: $script"
  bash "$script"
done

du -sh "$FIXTURES"
