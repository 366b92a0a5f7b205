"""Times libvips' resize and Gaussian blur through pyvips on one decoded image, inside one process, for the
comparison with ours (Scripts/bench-transform.sh).

The JPEG is decoded once into memory, untimed; each operation is then run N times, its result computed into a
fresh memory image each time, and the best and median wall-clock times are printed as one JSON line. The
decoded input and the last output of each operation are written to OUTDIR as raw RGB bytes.

The operations match ours algorithm for algorithm, so that the times compare the implementations:
  resize  resize(1/4, kernel="cubic"): for a 4x reduction libvips first averages 2x2 blocks (shrink, the
          default gap of 2) and then reduces by 2 with Catmull-Rom ("cubic") widened by that factor, which is what
          our Resize does (area average over floor(factor / 2) blocks, then a widened Catmull-Rom). The default
          kernel, lanczos3, is sharper and costs more taps.
  blur    gaussblur(sigma): libvips' default for 8-bit images is precision="integer" (a fixed-point Gaussian
          mask, cut where it falls below min_ampl=0.2), so it is left at the default. Ours approximates the
          Gaussian with three box blurs.

Usage: python transform_vips.py FILE N SIGMA OUTDIR [--extras]
  --extras  also writes (untimed) variants for the quality comparison: the resize with the default kernel, and
            the blur with precision="float" and with min_ampl=0.01.
"""
import json
import os
import statistics
import sys
import time

import pyvips


def main():
    args = [a for a in sys.argv[1:] if a != "--extras"]
    extras = "--extras" in sys.argv[1:]
    if len(args) != 4:
        sys.exit("usage: transform_vips.py FILE N SIGMA OUTDIR [--extras]")
    path, runs, sigma, outdir = args[0], int(args[1]), float(args[2]), args[3]
    os.makedirs(outdir, exist_ok=True)

    # No operation cache: otherwise a repeated call would return the previous result without computing it.
    pyvips.cache_set_max(0)

    # Decoded whole into memory, so that the timed operations read pixels and not the file. Loaded with
    # access="sequential": the memory copy keeps libvips' sequential hint, with which its resize streams
    # without a line cache and runs about three times faster than after a random-access load; the faster
    # setting is the fair baseline. The blur is not affected.
    image = pyvips.Image.new_from_file(path, access="sequential").copy_memory()
    if image.bands != 3 or image.format != "uchar":
        sys.exit(f"transform_vips.py: expected 8-bit RGB, got {image.bands} bands of {image.format}")
    width, height = image.width // 4, image.height // 4

    def resize(kernel="cubic"):
        return image.resize(width / image.width, vscale=height / image.height, kernel=kernel)

    def blur(**options):
        return image.gaussblur(sigma, **options)

    def timed(operation):
        times, last = [], None
        for _ in range(runs):
            start = time.perf_counter()
            last = operation().copy_memory()  # computes every pixel into a new memory image
            times.append((time.perf_counter() - start) * 1e3)
        return times, last

    resize_times, resized = timed(resize)
    blur_times, blurred = timed(blur)
    if (resized.width, resized.height) != (width, height):
        sys.exit(f"transform_vips.py: resize gave {resized.width}x{resized.height}, not {width}x{height}")

    def write(name, result):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(result.write_to_memory())

    write("vips-input.rgb", image)
    write("vips-resize.rgb", resized)
    write("vips-blur.rgb", blurred)
    if extras:
        write("vips-resize-lanczos3.rgb", resize("lanczos3").copy_memory())
        write("vips-blur-integer.rgb", blur(precision="integer").copy_memory())
        # Float precision gives float pixels: rounded back to 8 bits.
        write("vips-blur-float.rgb", blur(precision="float").rint().cast("uchar").copy_memory())
        write("vips-blur-min-ampl-0.01.rgb", blur(min_ampl=0.01).copy_memory())

    def summary(times):
        return {"best_ms": round(min(times), 3), "median_ms": round(statistics.median(times), 3)}

    report = {
        "side": "vips",
        "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
        "pyvips": pyvips.__version__,
        "threads": pyvips.concurrency_get(),
        "runs": runs,
        "input": {"width": image.width, "height": image.height},
        "resize": {"width": width, "height": height, "kernel": "cubic", **summary(resize_times)},
        "blur": {"sigma": sigma, "precision": "integer (default)", **summary(blur_times)},
    }
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
