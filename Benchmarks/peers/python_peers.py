"""The Python side of the peer comparison (Benchmarks/peers/run.sh): Pillow and libvips (through pyvips), each
timed inside this process, so that start-up never counts. Every mode prints one JSON line of the same shape as
our side's (Benchmarks/Tools/PeerTiming).

  decode FORMAT FILE SECONDS            Pillow and pyvips decode the file, alternating, until the time is up
  thumb SIZE SECONDS FILE...            thumbnails of files of one format: one at a time, then batches on a thread pool
  job URLLIST CACHEDIR SIZE WORKERS     the server job, cold then warm: requests + Pillow + a disk cache

What each library is asked to do:
  decode  Pillow: Image.open + load(), in the file's own mode (RGB for these JPEG, PNG and WebP files); a GIF is
          converted to RGBA, as ours gives RGBA (its palette indices alone are reported as "pillow-palette").
          pyvips: new_from_buffer(access="sequential").copy_memory(), every pixel decoded into a new memory
          image, with libvips' operation cache off so that nothing is reused between decodes. Each decode's process
          CPU time is reported beside its wall time. AVIF is read by Pillow itself (its wheel has libavif), HEIC
          through pillow-heif and JPEG XL through pillow-jxl-plugin, each with its decoder's default threads,
          where pip installed them; libvips reads AVIF and HEIC through libheif and JPEG XL through libjxl.
  thumb   Pillow: open, draft("RGB", (SIZE, SIZE)) (libjpeg's DCT scaling), thumbnail((SIZE, SIZE)) with its
          defaults (draft does nothing for AVIF, HEIC and JPEG XL: the image is decoded whole). pyvips:
          thumbnail_buffer(SIZE, height=SIZE) (shrink-on-load where the format has it, then its resize), copy_memory().
          Batches: every file once on a ThreadPoolExecutor with one thread per core; both libraries release the
          GIL while they decode and resize.
A side that cannot read the format here (no plugin, no loader) is left out after its first try, and the report
names it under "skipped" with the error, rather than failing the run.
"""
import concurrent.futures
import hashlib
import io
import json
import os
import statistics
import sys
import threading
import time

# Pillow reads HEIC and JPEG XL through plugins from PyPI, where run.sh could install them; without one, the
# Pillow side of that format is skipped. pillow-heif is imported before pyvips: libvips loads Debian's libheif
# 1.15 with its symbols global, and pillow-heif's own newer libheif, loaded after it, would bind to those and
# crash on its first decode.
try:
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:
    pass
try:
    import pillow_jxl  # noqa: F401 (registers its opener on import)
except ImportError:
    pass

import pyvips  # noqa: E402 (after pillow_heif, above)
import requests  # noqa: E402
from PIL import Image  # noqa: E402

# Without this libvips would return a cached result for a repeated call and decode nothing.
pyvips.cache_set_max(0)


def ms(start):
    return round((time.perf_counter() - start) * 1e3, 3)


def pillow_decode(data, to_rgba):
    image = Image.open(io.BytesIO(data))
    image.load()
    if to_rgba:
        image = image.convert("RGBA")
    return image.size


def vips_decode(data):
    image = pyvips.Image.new_from_buffer(data, "", access="sequential").copy_memory()
    return image.width, image.height


def first_results(sides, *args):
    """One untimed run of each side: the results of those that can read the file, and the error of each that
    cannot (removed from `sides`)."""
    results, skipped = {}, {}
    for name, run in list(sides.items()):
        try:
            results[name] = run(*args)
        except (OSError, pyvips.Error) as error:
            skipped[name] = (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
            del sides[name]
    return results, skipped


def decode(format_, path, seconds):
    with open(path, "rb") as f:
        data = f.read()
    rgba = format_ == "gif"
    sides = {
        "pillow": lambda: pillow_decode(data, rgba),
        "vips": lambda: vips_decode(data),
    }
    if rgba:
        sides["pillow-palette"] = lambda: pillow_decode(data, False)
    sizes, skipped = first_results(sides)
    if len(set(sizes.values())) > 1:
        sys.exit(f"python_peers.py: the decoded sizes differ: {sizes}")
    times = {name: [] for name in sides}
    cpu_times = {name: [] for name in sides}
    end = time.perf_counter() + seconds
    while sides and (len(next(iter(times.values()))) < 5 or time.perf_counter() < end):
        for name, run in sides.items():
            cpu = time.process_time()
            start = time.perf_counter()
            run()
            times[name].append(ms(start))
            cpu_times[name].append(round((time.process_time() - cpu) * 1e3, 3))
    width, height = next(iter(sizes.values()), (0, 0))
    return {"mode": "decode", "format": format_, "width": width, "height": height, "ms": times,
            "cpu_ms": cpu_times, "skipped": skipped}


def pillow_thumbnail(data, size):
    image = Image.open(io.BytesIO(data))
    image.draft("RGB", (size, size))
    image.thumbnail((size, size))
    return image


def vips_thumbnail(data, size):
    return pyvips.Image.thumbnail_buffer(data, size, height=size).copy_memory()


def thumb(size, seconds, paths):
    files = []
    for path in paths:
        with open(path, "rb") as f:
            files.append(f.read())
    sides = {
        "pillow": lambda data: pillow_thumbnail(data, size).size,
        "vips": lambda data: (lambda image: (image.width, image.height))(vips_thumbnail(data, size)),
    }
    sizes, skipped = first_results(sides, files[0])
    if len(set(sizes.values())) > 1 or any(max(value) != size for value in sizes.values()):
        sys.exit(f"python_peers.py: thumbnail sizes: {sizes}")
    single = {name: [] for name in sides}
    end = time.perf_counter() + seconds / 2
    while sides and (len(next(iter(single.values()))) < len(files) or time.perf_counter() < end):
        for data in files:
            for name, run in sides.items():
                start = time.perf_counter()
                run(data)
                single[name].append(ms(start))
    batch = {name: [] for name in sides}
    busy = {name: [] for name in sides}
    threads = {name: set() for name in sides}
    workers = os.cpu_count() or 1

    def task(name, run):
        def body(data):
            run(data)
            threads[name].add(threading.get_ident())
        return body

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(lambda _: None, range(workers)))  # the threads exist before the first batch
        end = time.perf_counter() + seconds / 2
        while sides and (len(next(iter(batch.values()))) < 3 or time.perf_counter() < end):
            for name, run in sides.items():
                cpu = time.process_time()
                start = time.perf_counter()
                list(pool.map(task(name, run), files))
                wall = time.perf_counter() - start
                batch[name].append(round(wall * 1e3 / len(files), 3))
                busy[name].append(round((time.process_time() - cpu) / wall, 2))
    width, height = next(iter(sizes.values()), (0, 0))
    return {
        "mode": "thumb", "size": size, "files": len(files), "width": width, "height": height,
        "single_ms": single, "batch_ms_per_image": batch, "batch_cores_busy": busy,
        "batch_threads": {name: len(ids) for name, ids in threads.items()}, "skipped": skipped,
    }


# The server job, written as a Python service usually is. The disk cache holds what ours holds: the downloaded
# bytes under the URL's key and the encoded thumbnail under the thumbnail's key, each file named by the MD5 of its
# key, written to a temporary file and renamed. A load whose thumbnail file exists reads and decodes it (the warm
# pass); otherwise it downloads, stores the bytes, decodes a thumbnail, encodes it in the source's format (JPEG at
# quality 100 without chroma subsampling, as ours encodes at its default quality 1.0) and stores it.

SAVE_OPTIONS = {"JPEG": {"quality": 100, "subsampling": 0}, "WEBP": {"quality": 100}, "PNG": {}}


def cache_path(directory, key, url):
    extension = os.path.splitext(url.split("?")[0])[1]
    return os.path.join(directory, hashlib.md5(key.encode()).hexdigest() + extension)


def write_atomically(path, data):
    temporary = f"{path}.{threading.get_ident()}.tmp"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


def job(url_list, directory, size, workers):
    with open(url_list) as f:
        urls = [line.strip() for line in f if line.strip()]
    os.makedirs(directory, exist_ok=True)
    local = threading.local()

    def session():
        if not hasattr(local, "session"):
            local.session = requests.Session()
        return local.session

    def load(url):
        thumbnail_path = cache_path(directory, f"{url}-thumbnail-{size}", url)
        try:
            with open(thumbnail_path, "rb") as f:
                cached = f.read()
            image = Image.open(io.BytesIO(cached))
            image.load()
            return "disk", image.size
        except FileNotFoundError:
            pass
        response = session().get(url, timeout=15)
        response.raise_for_status()
        data = response.content
        write_atomically(cache_path(directory, url, url), data)
        image = Image.open(io.BytesIO(data))
        source_format = image.format
        image.draft("RGB", (size, size))
        image.thumbnail((size, size))
        encoded = io.BytesIO()
        image.save(encoded, format=source_format, **SAVE_OPTIONS.get(source_format, {}))
        write_atomically(thumbnail_path, encoded.getvalue())
        return "none", image.size

    def one_pass(expected):
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda _: None, range(workers)))  # the threads exist before the clock starts
            cpu = time.process_time()
            start = time.perf_counter()
            results = list(pool.map(load, urls))
            seconds = time.perf_counter() - start
            cpu_seconds = time.process_time() - cpu
        sources = {}
        for source, image_size in results:
            sources[source] = sources.get(source, 0) + 1
            if max(image_size) != size:
                sys.exit(f"python_peers.py: a thumbnail is {image_size}, not {size}")
        if sources != {expected: len(urls)}:
            sys.exit(f"python_peers.py: expected every image from {expected}, got {sources}")
        return {"seconds": round(seconds, 6), "cpu_seconds": round(cpu_seconds, 6), "sources": sources}

    # The cold pass into the empty directory, then the warm pass over the same directory, on a new pool.
    cold = one_pass("none")
    warm = one_pass("disk")
    return {"mode": "job", "images": len(urls), "workers": workers, "cold": cold, "warm": warm}


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "decode":
        report = decode(args[1], args[2], float(args[3]))
    elif len(args) >= 4 and args[0] == "thumb":
        report = thumb(int(args[1]), float(args[2]), args[3:])
    elif len(args) == 5 and args[0] == "job":
        report = job(args[1], args[2], int(args[3]), int(args[4]))
    else:
        sys.exit(__doc__)
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
