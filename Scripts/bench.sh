#!/usr/bin/env bash
# Runs the benchmarks in Benchmarks/ (ordo-one/benchmark): our coders against the C libraries called directly,
# in one run, and prints the ratios. Makes the input images first (ImageMagick, cwebp), once.
#   Scripts/bench.sh                 all benchmarks
#   Scripts/bench.sh --filter JPEG   benchmarks whose name matches (passed to the benchmark plugin)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[[ -x /usr/bin/convert ]] || need+=(imagemagick)
command -v cwebp >/dev/null 2>&1 || need+=(webp)
Scripts/setup.sh "${need[@]}"

inputs=Benchmarks/Inputs
mkdir -p "$inputs"
if [[ ! -f "$inputs/photo-4000x3000-smooth.jpg" ]]; then
  echo "bench.sh: making inputs in $inputs"
  # A photo-like image: a plasma fractal, lightly blurred, as smooth areas and fine detail are both in photos.
  convert -size 2000x1500 -seed 42 plasma:fractal -blur 0x1 -strip "$inputs/base-2000.png"
  convert "$inputs/base-2000.png" -resize 4000x3000! -seed 43 -attenuate 0.3 +noise Gaussian -strip \
    -quality 90 -sampling-factor 4:2:0 "$inputs/photo-4000x3000.jpg"
  # The same without the noise, at the quality web images are usually served.
  convert "$inputs/base-2000.png" -resize 4000x3000! -strip -quality 85 -sampling-factor 4:2:0 \
    "$inputs/photo-4000x3000-smooth.jpg"
  convert "$inputs/base-2000.png" -strip -define png:exclude-chunks=date,time "PNG24:$inputs/photo-2000x1500.png"
  cwebp -quiet -q 80 "$inputs/base-2000.png" -o "$inputs/photo-2000x1500.webp"
  convert "$inputs/base-2000.png" -resize 1000x750! -colors 256 -strip "$inputs/photo-1000x750.gif"
  rm -f "$inputs/base-2000.png"
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --format markdown --no-progress "$@") | tee "$out"

python3 - "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
units = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
p50 = {}
mallocs = {}
for block in re.split(r"^### ", text, flags=re.M)[1:]:
    name = block.splitlines()[0].strip()
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4:
            continue
        m = re.match(r"Time \(wall clock\) \((\w+)\)", cells[0])
        if m:
            p50[name] = float(cells[3].replace(",", "")) * units.get(m.group(1), 1)
        if cells[0].startswith("Malloc (large)"):
            mallocs[name] = cells[3]
def ratio(a, b):
    return p50[a] / p50[b] if a in p50 and b in p50 else None
print("\n== Ratios (p50 wall clock, same run)")
for fmt in ["JPEG", "PNG", "WebP", "GIF"]:
    ours, fresh, reused = (f"{fmt} decode: ours", f"{fmt} decode: C, fresh buffer", f"{fmt} decode: C, reused buffer")
    r1, r2 = ratio(ours, fresh), ratio(ours, reused)
    if r1 is not None:
        print(f"{fmt:5} ours / C fresh buffer = {r1:.3f}   ours / C reused buffer = {r2:.3f}   "
              f"large mallocs per decode: ours {mallocs.get(ours, '?')}, C fresh {mallocs.get(fresh, '?')}")
for label in ["noisy", "smooth"]:
    t = ratio(f"JPEG thumbnail 256 ({label}): ours, full decode + downscale", f"JPEG thumbnail 256 ({label}): ours, reduced decode")
    if t is not None:
        print(f"JPEG thumbnail 256 ({label}): full decode + downscale / reduced decode = {t:.2f}x")
PY
