#!/usr/bin/env bash
# Makes the sample images the webimage tool bundles (Sources/webimage/Samples) with ImageMagick and the WebP
# tools. The output is deterministic: fixed seeds, metadata stripped.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[[ -x /usr/bin/convert ]] || need+=(imagemagick)
command -v img2webp >/dev/null 2>&1 || need+=(webp)
[[ ${#need[@]} -eq 0 ]] || Scripts/setup.sh "${need[@]}"

out=Sources/webimage/Samples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# A 1600 x 1067 photo-like JPEG.
convert -size 1600x1067 -seed 11 plasma:orange-navy -blur 0x2 -strip -quality 85 -sampling-factor 4:2:0 "$out/photo.jpg"
# A portrait photo stored sideways with EXIF orientation 6 ("turn a quarter clockwise"): shown 480 x 640.
convert -size 480x640 -seed 5 plasma:green-yellow -blur 0x2 \
  -fill white -draw "rectangle 40,40 440,120" -rotate -90 -strip -quality 85 "$work/portrait.jpg"
# ImageMagick writes no EXIF block for a stripped file: insert a minimal APP1 (big-endian TIFF, one IFD0 entry,
# Orientation = 6) after the SOI marker.
python3 - "$work/portrait.jpg" "$out/portrait.jpg" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:2] == b"\xff\xd8"
tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack(">I", 0)
payload = b"Exif\x00\x00" + tiff
app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
open(sys.argv[2], "wb").write(data[:2] + app1 + data[2:])
PY
# A logo with transparency.
convert -size 256x256 xc:none -fill '#1e88e5' -draw "circle 128,128 128,16" \
  -fill '#ffffffc0' -draw "rectangle 88,88 168,168" -strip -define png:exclude-chunks=date,time "PNG32:$out/logo.png"
# An animated GIF: a dot going round, 12 frames of 80 ms, looping forever.
frames=()
for i in $(seq 0 11); do
  angle=$(python3 -c "import math; print(f'{32 + 22*math.cos($i*math.pi/6):.1f},{32 + 22*math.sin($i*math.pi/6):.1f}')")
  f="$work/spin-$i.png"
  convert -size 64x64 xc:white -fill '#e53935' -draw "translate $angle circle 0,0 0,7" -strip "$f"
  frames+=("$f")
done
convert -delay 8 -loop 0 "${frames[@]}" -strip "$out/spinner.gif"
# An animated WebP with alpha: four coloured squares, 250 ms each.
webp_frames=()
for c in e53935 43a047 1e88e5 fdd835; do
  f="$work/sq-$c.png"
  convert -size 96x96 xc:none -fill "#$c" -draw "roundrectangle 8,8 88,88 16,16" -strip "PNG32:$f"
  webp_frames+=(-d 250 "$f")
done
img2webp -loop 0 -lossless "${webp_frames[@]}" -o "$out/squares.webp" >/dev/null 2>&1

du -ch "$out"/* | tail -1
