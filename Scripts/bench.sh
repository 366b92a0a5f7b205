#!/usr/bin/env bash
# Runs the benchmarks in Benchmarks/ (ordo-one/benchmark): our coders against the C libraries called directly,
# in one run, and prints the ratios. Makes the input images first (ImageMagick, cwebp), once.
#   Scripts/bench.sh                 all benchmarks
#   Scripts/bench.sh --filter ".*JPEG.*"   benchmarks whose whole name matches the pattern (passed to the plugin)
#   Scripts/bench.sh --target ManagerBenchmarks   one target: Cache, Codec, Download or ManagerBenchmarks
#   Scripts/bench.sh --instructions  instructions per decode, ours against the C baseline, counted by callgrind:
#                                    repeatable whatever else the machine is doing
# The manager's cache benchmarks write their caches under the system's temporary directory, or under
# WEBIMAGE_BENCHMARK_CACHE_ROOT when set. On ext4 without a journal, creating files within about five minutes of
# many deletions (a build, a test run) is several times slower: run them on a machine that has been quiet that long.
set -euo pipefail
cd "$(dirname "$0")/.."

instructions=false
if [[ ${1:-} == --instructions ]]; then
  instructions=true
  shift
fi

need=()
[[ -x /usr/bin/convert ]] || need+=(imagemagick)
command -v cwebp >/dev/null 2>&1 || need+=(webp)
command -v avifenc >/dev/null 2>&1 || need+=(libavif-bin)
Scripts/setup.sh "${need[@]}"

inputs=Benchmarks/Inputs
mkdir -p "$inputs"
if [[ ! -f "$inputs/photo-256.jpg" ]]; then
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
  # A thumbnail-sized JPEG, as caches hold many of: 256 x 192.
  convert "$inputs/base-2000.png" -resize 256x192! -strip -quality 85 "$inputs/photo-256.jpg"
  rm -f "$inputs/base-2000.png"
fi
if [[ ! -f "$inputs/photo-2000x1500.avif" ]]; then
  command -v avifenc >/dev/null 2>&1 || Scripts/setup.sh libavif-bin
  # From the PNG input, at avifenc's default quality and a speed a server would use.
  avifenc -j 1 -s 8 "$inputs/photo-2000x1500.png" "$inputs/photo-2000x1500.avif" >/dev/null
fi
# JPEG XL at cjxl's default distance, from the PNG above (added after the others, so made on its own).
if [[ ! -f "$inputs/photo-2000x1500.jxl" ]]; then
  command -v cjxl >/dev/null 2>&1 || Scripts/setup.sh libjxl-tools
  cjxl --quiet -d 1 "$inputs/photo-2000x1500.png" "$inputs/photo-2000x1500.jxl" 2>/dev/null
fi
# HEIC at heif-enc's default quality (x265), from the same PNG, made on its own like the JPEG XL input.
if [[ ! -f "$inputs/photo-2000x1500.heic" ]]; then
  command -v heif-enc >/dev/null 2>&1 || Scripts/setup.sh libheif-examples
  heif-enc "$inputs/photo-2000x1500.png" -o "$inputs/photo-2000x1500.heic" >/dev/null
fi

if $instructions; then
  command -v valgrind >/dev/null 2>&1 || Scripts/setup.sh valgrind
  # Without debug information: this valgrind cannot read the DWARF 5 that the toolchain's compilers write.
  flags=(-c release -Xswiftc -gnone -Xcc -g0 --scratch-path .build-instructions)
  (cd Benchmarks && swift build "${flags[@]}" --product RawDecode && swift build "${flags[@]}" --product OurDecode) >/dev/null
  bin=$(cd Benchmarks && swift build "${flags[@]}" --show-bin-path)
  count() {  # PROGRAM FORMAT FILE N -> instructions
    local log
    log=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin/$1" "$2" "$3" "$4" 2>"$log" >/dev/null
    local collected
    collected=$(grep -oE 'Collected : [0-9]+' "$log" | grep -oE '[0-9]+' || true)
    if [[ -z $collected ]]; then
      echo "bench.sh: callgrind failed on $1 $2:" >&2
      tail -5 "$log" >&2
      rm -f "$log"
      return 1
    fi
    rm -f "$log"
    echo "$collected"
  }
  echo "== Instructions per decode (callgrind; 4 decodes minus 1, so start-up cancels out)"
  for item in jpeg:photo-4000x3000.jpg png:photo-2000x1500.png webp:photo-2000x1500.webp gif:photo-1000x750.gif \
      avif:photo-2000x1500.avif jxl:photo-2000x1500.jxl heic:photo-2000x1500.heic; do
    format=${item%%:*}
    file=$inputs/${item#*:}
    ours4=$(count OurDecode "$format" "$file" 4); ours1=$(count OurDecode "$format" "$file" 1)
    raw4=$(count RawDecode "$format" "$file" 4); raw1=$(count RawDecode "$format" "$file" 1)
    ours=$(( (ours4 - ours1) / 3 ))
    raw=$(( (raw4 - raw1) / 3 ))
    python3 -c "print(f'{\"$format\":5} ours {$ours/1e6:8.1f} M   C {$raw/1e6:8.1f} M   ours / C = {$ours/$raw:.4f}')"
  done
  exit 0
fi

# The download benchmarks run their loopback server as a child process, built here.
(cd Benchmarks && swift build -c release --product LoopbackServer) >/dev/null

out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --format markdown --no-progress "$@") | tee "$out"

python3 - "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
units = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
rows = {}
for block in re.split(r"^### ", text, flags=re.M)[1:]:
    name = block.splitlines()[0].strip()
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 8 and not cells[0].startswith(":"):
            rows.setdefault(name, {})[cells[0].rstrip(" *")] = cells[1:8]

scales = {"(K)": 1e3, "(M)": 1e6, "(G)": 1e9}

def cell(name, metric, column):
    """The value in column p0, p25, p50, p75, p90, p99, p100 (0...6), with the table's (K)/(M) scale applied."""
    for key, values in rows.get(name, {}).items():
        if key.startswith(metric):
            scale = next((f for suffix, f in scales.items() if key.endswith(suffix)), 1)
            return float(values[column].replace(",", "")) * scale
    return None

print("\n== Ratios from alternating pairs (p25 / p50 / p75 of the per-pair ratio)")
for name in sorted(rows):
    if "alternating" not in name:
        continue
    q = [cell(name, "ours / baseline", c) for c in (1, 2, 3)]
    ours, base = cell(name, "ours (μs)", 2), cell(name, "baseline (μs)", 2)
    if None in q:
        continue
    label = name.replace(", alternating", "")
    if "thumbnail" in name:
        print(f"{label}: full + downscale / reduced = {1000/q[1]:.2f}x  (IQR {1000/q[2]:.2f}-{1000/q[0]:.2f}; p50 {ours/1000:.1f} ms vs {base/1000:.1f} ms)")
    else:
        print(f"{label}: ours / baseline = {q[1]/1000:.3f}  (IQR {q[0]/1000:.3f}-{q[2]/1000:.3f}; p50 {ours:.0f} us vs {base:.0f} us)")
    # The process's CPU time per request of each side, where the benchmark records it.
    c = [cell(name, "ours CPU / baseline CPU", col) for col in (1, 2, 3)]
    if None not in c:
        ours_cpu, base_cpu = cell(name, "ours CPU per request", 2), cell(name, "baseline CPU per request", 2)
        print(f"{' ' * len(label)}  CPU: ours / baseline = {c[1]/1000:.3f}  (IQR {c[0]/1000:.3f}-{c[2]/1000:.3f}; "
              f"p50 {ours_cpu/1000:.1f} us vs {base_cpu/1000:.1f} us CPU per request)")

print("\n== Allocations per decode (p50) and the cost of a fresh buffer")
for fmt in ["JPEG", "PNG", "WebP", "GIF"]:
    ours, fresh, reused = (f"{fmt} decode: ours", f"{fmt} decode: C, fresh buffer", f"{fmt} decode: C, reused buffer")
    values = [cell(n, "Time (wall clock)", 2) for n in (fresh, reused)]
    large = [cell(n, "Malloc (large)", 2) for n in (ours, fresh, reused)]
    total = [cell(n, "Malloc (total)", 2) for n in (ours, fresh, reused)]
    if None in values:
        continue
    print(f"{fmt:5} large mallocs ours {large[0]:.0f} / C fresh {large[1]:.0f} / C reused {large[2]:.0f};  "
          f"all mallocs ours {total[0]:.0f} / C fresh {total[1]:.0f};  C fresh / C reused time = {values[0]/values[1]:.2f}")
PY
