#!/usr/bin/env bash
# Our resize and Gaussian blur against libvips (pyvips over Debian's libvips) on the same 4000 x 3000 JPEG, each
# timed inside one process so that start-up does not count: ours (Benchmarks/Tools/TransformTiming) and libvips
# (Benchmarks/Tools/transform_vips.py) take turns for a few rounds. Prints, per operation, the ratio of the
# median times ours / libvips (1.0 or less: ours is at least as fast) and the mean absolute difference of the
# outputs per channel, in 1/255 units (the goal: at most 2).
#   Scripts/bench-transform.sh [ROUNDS [RUNS [SIGMA]]]   defaults: 3 rounds of 5 runs a side, sigma 5
# Installs what is missing the first time: libvips and python3-venv with apt, and pyvips and numpy with pip in
# Benchmarks/.venv-vips. The outputs of the last round are left in Benchmarks/.build/transform-outputs.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-3}
runs=${2:-5}
sigma=${3:-5}

Scripts/setup.sh libvips42 python3-pip python3-venv

input=Benchmarks/Inputs/photo-4000x3000.jpg
if [[ ! -f $input ]]; then
  # The same commands as Scripts/bench.sh, for this one input.
  [[ -x /usr/bin/convert ]] || Scripts/setup.sh imagemagick
  mkdir -p Benchmarks/Inputs
  base=$(mktemp --suffix=.png)
  convert -size 2000x1500 -seed 42 plasma:fractal -blur 0x1 -strip "$base"
  convert "$base" -resize 4000x3000! -seed 43 -attenuate 0.3 +noise Gaussian -strip \
    -quality 90 -sampling-factor 4:2:0 "$input"
  rm -f "$base"
fi

venv=Benchmarks/.venv-vips
python=$venv/bin/python
if ! "$python" -c 'import pyvips, numpy' >/dev/null 2>&1; then
  echo "bench-transform.sh: installing pyvips and numpy in $venv"
  # Debian's Python, whose venv module python3-venv provides.
  base_python=/usr/bin/python3
  [[ -x $base_python ]] || base_python=python3
  "$base_python" -m venv "$venv"
  "$python" -m pip install --quiet --upgrade pip
  "$python" -m pip install --quiet pyvips numpy
fi

(cd Benchmarks && swift build -c release --product TransformTiming) >/dev/null
ours=$(cd Benchmarks && swift build -c release --show-bin-path)/TransformTiming

outputs=Benchmarks/.build/transform-outputs
rm -rf "$outputs"
mkdir -p "$outputs"
results=$outputs/results.jsonl

for round in $(seq 1 "$rounds"); do
  extras=()
  [[ $round -eq $rounds ]] && extras=(--extras)
  "$ours" "$input" "$runs" "$sigma" "$outputs" | tee -a "$results"
  "$python" Benchmarks/Tools/transform_vips.py "$input" "$runs" "$sigma" "$outputs" "${extras[@]}" | tee -a "$results"
done
# One more round of libvips on a single thread, as ours runs on one: for information, not for the verdict.
VIPS_CONCURRENCY=1 "$python" Benchmarks/Tools/transform_vips.py "$input" "$runs" "$sigma" "$outputs/one-thread" \
  | sed 's/"side": "vips"/"side": "vips-1"/' | tee -a "$results"

"$python" - "$results" "$outputs" <<'PY'
import json
import os
import statistics
import sys

import numpy as np

results, outputs = sys.argv[1], sys.argv[2]
rows = [json.loads(line) for line in open(results) if line.strip()]
sides = {side: [r for r in rows if r["side"] == side] for side in ("ours", "vips", "vips-1")}
vips = sides["vips"][0]
print()
print(f"== Ours against libvips {vips['libvips']} (pyvips {vips['pyvips']}), {vips['input']['width']} x "
      f"{vips['input']['height']} JPEG, {len(sides['ours'])} rounds of {vips['runs']} runs a side")
print(f"   libvips threads: {vips['threads']} (VIPS_CONCURRENCY, default the number of cores); "
      f"ours: resize {sides['ours'][0]['threads']['resize']}, blur {sides['ours'][0]['threads']['blur']}")


def times(side, operation):
    group = sides[side]
    # The median of the rounds' medians, and the best run of all.
    return statistics.median(r[operation]["median_ms"] for r in group), min(r[operation]["best_ms"] for r in group)


def load(name):
    return np.fromfile(os.path.join(outputs, name), dtype=np.uint8).astype(np.int16).reshape(-1, 3)


def mad(a, b):
    x, y = load(a), load(b)
    if x.shape != y.shape:
        sys.exit(f"bench-transform.sh: {a} and {b} differ in size")
    d = np.abs(x - y)
    return d.mean(axis=0), d.mean(), int(d.max())


def describe(a, b):
    per_channel, mean, largest = mad(a, b)
    rgb = " ".join(f"{v:.3f}" for v in per_channel)
    return mean, f"MAD {mean:.3f}/255 (R G B {rgb}), largest {largest}"


_, decode = describe("ours-input.rgb", "vips-input.rgb")
print(f"   decoded input, ours vs libvips: {decode}")
verdicts = []
for operation, label in (("resize", f"resize to 1000 x 750 (vips kernel cubic)"),
                         ("blur", f"gaussian blur sigma {vips['blur']['sigma']:g} (vips precision integer)")):
    ours_median, ours_best = times("ours", operation)
    vips_median, vips_best = times("vips", operation)
    one_median, _ = times("vips-1", operation)
    ratio = ours_median / vips_median
    mean, difference = describe(f"ours-{operation}.rgb", f"vips-{operation}.rgb")
    failures = [reason for reason, failed in (("ours is slower", ratio > 1.0), ("MAD above 2/255", mean > 2.0)) if failed]
    verdicts.append(not failures)
    print(f"-- {label}")
    print(f"   median ms: ours {ours_median:8.2f}  libvips {vips_median:8.2f}  ours / libvips = {ratio:.3f}"
          f"   (best: {ours_best:.2f} / {vips_best:.2f} = {ours_best / vips_best:.3f})")
    print(f"   libvips on 1 thread: median {one_median:.2f} ms, ours / that = {ours_median / one_median:.3f}")
    print(f"   output: {difference}")
    print(f"   {'FAIL: ' + ', '.join(failures) if failures else 'PASS'} (goal: ratio <= 1.0 and MAD <= 2/255)")
print("-- other libvips settings, for quality only (untimed)")
for ours_name, vips_name, label in (
    ("ours-resize.rgb", "vips-resize-lanczos3.rgb", "resize, kernel lanczos3 (the default)"),
    ("vips-blur.rgb", "vips-blur-integer.rgb", "blur, precision=\"integer\" given vs default (libvips to libvips)"),
    ("ours-blur.rgb", "vips-blur-float.rgb", "blur, precision=\"float\""),
    ("ours-blur.rgb", "vips-blur-min-ampl-0.01.rgb", "blur, min_ampl=0.01 (a wider mask)"),
):
    if os.path.exists(os.path.join(outputs, vips_name)):
        print(f"   {label}: {describe(ours_name, vips_name)[1]}")
print(f"== {'all pass' if all(verdicts) else 'not all pass'}")
PY
