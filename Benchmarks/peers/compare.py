"""Runs the peer comparison for Benchmarks/peers/run.sh and writes its table: ours (Benchmarks/Tools/PeerTiming)
against Pillow and libvips (Benchmarks/peers/python_peers.py), ImageMagick and the C libraries called directly.

Every round runs every comparison once, our side and each peer taking turns (the order flips from round to
round); each side times itself inside its process and reports its median. A ratio is the peer's time over ours,
computed per round: above 1 ours is faster. The table gives the median ratio over the rounds and, in brackets,
the lowest and highest.

  python compare.py --timing BIN --inputs DIR --corpus DIR --base-url URL --results FILE [--quick]
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, format, file in Benchmarks/Inputs, description)
DECODE_CLASSES = [
    ("jpeg-4000", "jpeg", "photo-4000x3000.jpg", "JPEG 4000x3000, q90 4:2:0, noisy"),
    ("jpeg-4000-smooth", "jpeg", "photo-4000x3000-smooth.jpg", "JPEG 4000x3000, q85 4:2:0, smooth"),
    ("jpeg-256", "jpeg", "photo-256.jpg", "JPEG 256x192"),
    ("png", "png", "photo-2000x1500.png", "PNG 2000x1500 RGB"),
    ("webp", "webp", "photo-2000x1500.webp", "WebP 2000x1500 lossy"),
    ("gif", "gif", "photo-1000x750.gif", "GIF 1000x750, 256 colours"),
    ("avif", "avif", "photo-2000x1500.avif", "AVIF 2000x1500, avifenc default quality, speed 8"),
    ("heic", "heic", "photo-2000x1500.heic", "HEIC 2000x1500, heif-enc default quality"),
    ("jxl", "jxl", "photo-2000x1500.jxl", "JPEG XL 2000x1500, cjxl distance 1"),
]
# What reads each of these formats into Pillow (Pillow itself, or a plugin from PyPI), for the notes.
PILLOW_READERS = {"avif": "its own AVIF plugin", "heic": "pillow-heif", "jxl": "pillow-jxl-plugin"}
# Thumbnails of the formats whose decoders give no reduced decode: (format, title); the files are
# corpus/thumbs-FORMAT (make_corpus.py), 4000x3000 each.
CODEC_THUMB_FORMATS = [("avif", "AVIF"), ("heic", "HEIC"), ("jxl", "JPEG XL")]
THUMBNAIL_SIZE = 256
WORKERS = 6
# The whole-job corpora: (key, title, directory under the corpus and URL path on the server, where the CPU time
# goes by a profile of each side, see README.md). Both run every round.
JOB_CORPORA = [
    ("camera", "camera originals", "job",
     "most of both sides' CPU time is libjpeg-turbo's entropy decoding of the 4000x3000 JPEGs, which DCT scaling "
     "does not skip: the same library work on both sides"),
    ("web", "web images", "web",
     "about two thirds of ours' CPU time is the C codecs both sides share (libjpeg-turbo, zlib, libwebp); "
     "Python's extra is its interpreter and Pillow's resampling"),
]
WARM_WHY = ("both sides read the same 256 px thumbnails and decode them with the same libraries, which is most "
            "of the time on both sides")
JOB_TARGETS = (("cold", 3.0), ("warm", 2.0))


def run_json(command, env=None):
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"compare.py: {os.path.basename(command[0])} {command[1]} failed:\n{result.stderr.strip()}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def median(values):
    return statistics.median(values)


class Comparison:
    def __init__(self, args):
        self.args = args
        self.python = sys.executable
        self.peers = os.path.join(HERE, "python_peers.py")
        self.magick = args.magick
        # Per-round medians: times[section][key][side] -> [ms per round]
        self.times = {}
        self.extra = {}
        self.magick_batch = {}
        # Sides that cannot read a class's files here: skipped[section][key][side] -> the reason.
        self.skipped = {}

    def record(self, section, key, side, value):
        self.times.setdefault(section, {}).setdefault(key, {}).setdefault(side, []).append(value)

    def skip(self, section, key, reasons):
        for side, reason in reasons.items():
            self.skipped.setdefault(section, {}).setdefault(key, {}).setdefault(side, reason)

    def take_decode(self, name, report):
        for side, values in report["ms"].items():
            self.record("decode", name, side, median(values))
        for side, values in report.get("cpu_ms", {}).items():
            self.record("decode-cpu", name, side, median(values))
        self.skip("decode", name, report.get("skipped", {}))

    # Decode

    def decode_ours(self, name, format_, path):
        report = run_json([self.args.timing, "decode", format_, path, str(self.args.seconds)])
        self.take_decode(name, report)

    def decode_python(self, name, format_, path):
        report = run_json([self.python, self.peers, "decode", format_, path, str(self.args.seconds)])
        self.take_decode(name, report)

    def decode_magick(self, name, path):
        """ImageMagick in batches: one process reads the file K + 1 times (each image deleted before the next
        is read, -limit thread 1) and one reads it once; the difference over K is the time of one decode,
        without the process's start-up. Three pairs a round, the median kept. A file ImageMagick cannot read
        (no delegate for the format) is skipped from then on, with its message."""
        if "magick" in self.skipped.get("decode", {}).get(name, {}):
            return
        if name not in self.magick_batch:
            try:
                subprocess.run([self.magick, path, "null:"], check=True, capture_output=True, text=True)
            except subprocess.CalledProcessError as error:
                lines = (error.stderr or "").strip().splitlines()
                self.skip("decode", name, {"magick": lines[0][:200] if lines else f"exit status {error.returncode}"})
                return
            # About as long as our side's budget, counting ImageMagick at three times our time (the first
            # round runs our side first).
            ours_ms = self.times["decode"][name]["ours"][-1]
            self.magick_batch[name] = max(3, min(400, round(self.args.seconds * 1000 / (3 * ours_ms))))
        count = self.magick_batch[name]

        def timed(reads):
            command = [self.magick, "-limit", "thread", "1"]
            for _ in range(reads - 1):
                command += [path, "+delete"]
            command += [path, "null:"]
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            return (time.perf_counter() - start) * 1e3

        per_decode = []
        for _ in range(3):
            one = timed(1)
            many = timed(count + 1)
            per_decode.append((many - one) / count)
        self.record("decode", name, "magick", median(per_decode))

    # Thumbnails

    def thumbnails_ours(self, files, section="thumb"):
        report = run_json([self.args.timing, "thumb", str(THUMBNAIL_SIZE), str(self.args.seconds * 2), *files])
        self.take_thumbnails(report, section)

    def thumbnails_python(self, files, section="thumb"):
        report = run_json([self.python, self.peers, "thumb", str(THUMBNAIL_SIZE), str(self.args.seconds * 2), *files])
        self.take_thumbnails(report, section)

    def take_thumbnails(self, report, section):
        """`section` is "thumb" for the JPEG files, "thumb-FORMAT" for the others."""
        for kind in ("single_ms", "batch_ms_per_image", "batch_cores_busy"):
            for side, values in report[kind].items():
                self.record(section, kind, side, median(values))
        for side, count in report["batch_threads"].items():
            self.record(section, "batch_threads", side, count)
        self.skip(section, "single_ms", report.get("skipped", {}))

    # The whole job

    def job(self, corpus, side, urls, directory):
        if side == "ours":
            command = [self.args.timing, "job", urls, directory, str(THUMBNAIL_SIZE), str(WORKERS)]
        else:
            command = [self.python, self.peers, "job", urls, directory, str(THUMBNAIL_SIZE), str(WORKERS)]
        report = run_json(command)
        for pass_name in ("cold", "warm"):
            self.record("job", f"{corpus}/{pass_name}", side, report[pass_name]["seconds"] * 1e3)
            self.record("job", f"{corpus}/{pass_name}-cpu", side, report[pass_name]["cpu_seconds"] * 1e3)

    def codec_work(self, corpus, paths):
        """The codec work of each pass alone, through our codecs (see CodecWorkTiming.swift): the wall time any
        implementation over these libraries needs at least."""
        report = run_json([self.args.timing, "codec", str(THUMBNAIL_SIZE), str(self.args.seconds), *paths])
        for pass_name in ("cold", "warm"):
            self.record("job", f"{corpus}/{pass_name}-codec", "ours", median(report[pass_name]["wall_ms"]))
            self.record("job", f"{corpus}/{pass_name}-codec-cpu", "ours", median(report[pass_name]["cpu_ms"]))

    def run(self):
        args = self.args
        thumbs_dir = os.path.join(args.corpus, "thumbs")
        thumb_files = sorted(os.path.join(thumbs_dir, f) for f in os.listdir(thumbs_dir))[: args.files]
        codec_thumb_files = {}
        for format_, _ in CODEC_THUMB_FORMATS:
            directory = os.path.join(args.corpus, f"thumbs-{format_}")
            codec_thumb_files[format_] = sorted(os.path.join(directory, f) for f in os.listdir(directory))
            codec_thumb_files[format_] = codec_thumb_files[format_][: args.codec_thumb_files]
        job_dir = os.path.join(args.corpus, "job")
        names = sorted(os.listdir(job_dir))
        job_names = [n for n in names if n.startswith("large-")][: args.files]
        job_names += [n for n in names if n.startswith("medium-") and n.endswith(".jpg")][: args.files]
        job_names += [n for n in names if n.startswith("small-")][: args.files // 2]
        job_names += [n for n in names if n.endswith(".webp")][: args.files // 2]
        web_dir = os.path.join(args.corpus, "web")
        web_names = sorted(os.listdir(web_dir))[: args.web_files]
        scratch = tempfile.mkdtemp(prefix="peers-")
        url_lists = {}
        file_paths = {}
        self.extra["jobs"] = {}
        for key, _, directory, _ in JOB_CORPORA:
            files = {"camera": job_names, "web": web_names}[key]
            url_lists[key] = os.path.join(scratch, f"urls-{key}.txt")
            file_paths[key] = [os.path.join(args.corpus, directory, name) for name in files]
            with open(url_lists[key], "w") as f:
                f.writelines(f"{args.base_url}/{directory}/{name}\n" for name in files)
            kinds = {}
            for name in files:
                kind = {".jpg": "JPEG", ".png": "PNG", ".webp": "WebP"}[os.path.splitext(name)[1]]
                kinds[kind] = kinds.get(kind, 0) + 1
            self.extra["jobs"][key] = {
                "images": len(files),
                "bytes": sum(os.path.getsize(os.path.join(args.corpus, directory, n)) for n in files),
                "kinds": kinds,
            }
        self.extra["thumb_files"] = len(thumb_files)
        self.extra["codec_thumb_files"] = {format_: len(files) for format_, files in codec_thumb_files.items()}
        try:
            for round_ in range(args.rounds):
                ours_first = round_ % 2 == 0
                print(f"round {round_ + 1} of {args.rounds}", file=sys.stderr, flush=True)
                for name, format_, file, _ in DECODE_CLASSES:
                    path = os.path.join(args.inputs, file)
                    steps = [
                        lambda: self.decode_ours(name, format_, path),
                        lambda: self.decode_python(name, format_, path),
                        lambda: self.decode_magick(name, path),
                    ]
                    for step in steps if ours_first else reversed(steps):
                        step()
                sides = [self.thumbnails_ours, self.thumbnails_python]
                for side in sides if ours_first else reversed(sides):
                    side(thumb_files)
                for format_, _ in CODEC_THUMB_FORMATS:
                    for side in sides if ours_first else reversed(sides):
                        side(codec_thumb_files[format_], f"thumb-{format_}")
                order = ["ours", "python"] if ours_first else ["python", "ours"]
                for key, _, _, _ in JOB_CORPORA:
                    # The cache directories stay until the end of the run: on an ext4 without a journal, creating
                    # files soon after many were deleted costs the kernel a scan past every recently deleted inode,
                    # the same extra on both sides, which is the benchmark's clean-up and not the job.
                    directories = {side: os.path.join(scratch, f"cache-{key}-{side}-{round_}") for side in order}
                    for side in order:
                        self.job(key, side, url_lists[key], directories[side])
                    self.codec_work(key, file_paths[key])
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


# Reporting


def per_round(times, peer, ours="ours"):
    """The peer's time over ours, round by round; `peer` may be a list, whose fastest counts in each round."""
    peers = peer if isinstance(peer, list) else [peer]
    return [min(times[p][i] for p in peers) / times[ours][i] for i in range(len(times[ours]))]


def side_label(side, format_):
    """A side's name in the notes: Pillow with its reader of `format_`."""
    if side == "pillow" and format_ in PILLOW_READERS:
        return f"Pillow ({PILLOW_READERS[format_]})"
    return {"pillow": "Pillow", "vips": "libvips", "magick": "ImageMagick"}.get(side, side)


def side_cell(times, side, skipped):
    """The ratio cell of `side`, or a dash for a side that could not read the files (named in a note)."""
    if side not in times:
        return "—" if side in skipped else "?"
    return cell(per_round(times, side))


def cores_busy(times, cpu, side):
    """CPU time over wall time of `side`, per round; None when the side did not run."""
    if side not in times or side not in cpu:
        return None
    return [cpu[side][i] / times[side][i] for i in range(len(times[side]))]


def cell(ratios):
    if len(ratios) == 1:
        return f"{ratios[0]:.2f}"
    return f"{median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"


def ms_cell(values):
    value = median(values)
    return f"{value:.3f}" if value < 1 else f"{value:.1f}"


def command_output(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    text = (result.stdout or result.stderr).strip()
    return text.splitlines()[0] if text else "?"


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    system = platform.system()
    try:
        with open("/etc/os-release") as f:
            fields = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
            system = fields.get("PRETTY_NAME", system).strip('"')
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {system}, Linux {platform.release()}"


def plugin_versions():
    """The PyPI plugins that read HEIC and JPEG XL into Pillow, as found in this Python."""
    found = []
    try:
        import pillow_heif

        found.append(f"pillow-heif {pillow_heif.__version__} (its own libheif {pillow_heif.libheif_version()}, "
                     f"decode threads {pillow_heif.options.DECODE_THREADS})")
    except ImportError:
        found.append("pillow-heif not installed: Pillow skips HEIC")
    try:
        from importlib import metadata

        from pillow_jxl import JpegXLImagePlugin

        threads = JpegXLImagePlugin.DECODE_THREADS
        found.append(f"pillow-jxl-plugin {metadata.version('pillow-jxl-plugin')} (libjxl built into it, decode "
                     f"threads {'one per core' if threads == -1 else threads})")
    except ImportError:
        found.append("pillow-jxl-plugin not installed: Pillow skips JPEG XL")
    return "; ".join(found)


def versions(magick):
    plugins = plugin_versions()  # first: pillow-heif must load its libheif before libvips loads Debian's
    import PIL
    import pyvips
    from PIL import features

    def pkg(name):
        return command_output(["pkg-config", "--modversion", name])

    def deb(name):
        return command_output(["dpkg-query", "-W", "-f", "${Version}", name])

    zlib_ng = features.version("zlib_ng") if "zlib_ng" in features.features else None
    zlib = f"zlib-ng {zlib_ng}" if zlib_ng else f"zlib {features.version('zlib')}"
    return [
        f"ours: {command_output(['swift', '--version'])}; libjpeg-turbo {pkg('libturbojpeg')}, "
        f"libpng {pkg('libpng')}, libwebp {pkg('libwebp')}, giflib {deb('libgif7')}, zlib {pkg('zlib')}, "
        f"libavif {pkg('libavif')}, libheif {pkg('libheif')}, libjxl {pkg('libjxl')}, libcurl {pkg('libcurl')}",
        f"Pillow {PIL.__version__} (with its own libjpeg-turbo {features.version('libjpeg_turbo')}, libwebp "
        f"{features.version('webp')}, {zlib}, "
        + (f"libavif {features.version('avif')}" if features.check("avif") else "no AVIF: Pillow skips AVIF")
        + f"), Python {platform.python_version()}",
        f"Pillow plugins: {plugins}",
        f"libvips {pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)} through pyvips {pyvips.__version__}"
        f" (default thread pool: {pyvips.concurrency_get()} threads)",
        f"ImageMagick: {command_output([magick, '-version']).replace('Version: ', '')}",
        f"nginx: {command_output(['nginx', '-v']).replace('nginx version: ', '')}",
    ]


def report_codec_thumbnails(comparison, out):
    """The thumbnails of the formats without a reduced decode: one row per format, ratios as in the JPEG table."""
    times = comparison.times
    counts = comparison.extra["codec_thumb_files"]
    cores = os.cpu_count()
    files = ", ".join(f"{counts[format_]} {title}" for format_, title in CODEC_THUMB_FORMATS)
    out(f"### AVIF, HEIC and JPEG XL to {THUMBNAIL_SIZE} px: {files} files of 4000x3000")
    out("")
    out("No side decodes these reduced: libavif, libheif and libjxl decode at full size (libvips' shrink-on-load")
    out("for HEIF is an embedded thumbnail, which these files do not have), then each side resizes. Pillow's `draft`")
    out("does nothing for them.")
    out("")
    out(f"| format | one at a time: ours ms | Pillow | libvips | batch over {cores} cores: ours ms per image | Pillow "
        "| libvips | cores busy in the batch: ours, Pillow, libvips |")
    out("|---|---:|---:|---:|---:|---:|---:|---|")
    notes = []
    for format_, title in CODEC_THUMB_FORMATS:
        t = times.get(f"thumb-{format_}", {})
        skipped = comparison.skipped.get(f"thumb-{format_}", {}).get("single_ms", {})
        for side, reason in skipped.items():
            notes.append(f"- {title}: {side_label(side, format_)} cannot read these files here, so it is left out: "
                         f"{reason}")
        single, batch, busy = t["single_ms"], t["batch_ms_per_image"], t["batch_cores_busy"]
        busy_cells = ", ".join(f"{median(busy[side]):.2f}" if side in busy else "—"
                               for side in ("ours", "pillow", "vips"))
        out(f"| {title} | {ms_cell(single['ours'])} | {side_cell(single, 'pillow', skipped)} | "
            f"{side_cell(single, 'vips', skipped)} | {ms_cell(batch['ours'])} | "
            f"{side_cell(batch, 'pillow', skipped)} | {side_cell(batch, 'vips', skipped)} | {busy_cells} |")
    out("")
    for note in notes:
        out(note)
    if notes:
        out("")


def report(comparison, started, loads):
    args = comparison.args
    times = comparison.times
    extra = comparison.extra
    lines = []
    out = lines.append
    out("# Ours against the libraries users would pick instead")
    out("")
    out(f"Measured {started:%Y-%m-%d %H:%M} UTC by `Benchmarks/peers/run.sh{' --quick' if args.quick else ''}`"
        f" ({args.rounds} rounds; each side times itself inside its own process and reports its median; a round"
        f" runs every comparison once, the order of the sides flipping from round to round).")
    out("")
    out(f"- Machine: {machine()}")
    out(f"- Load average (1 min) before and after the run: {loads[0]:.2f}, {loads[1]:.2f}")
    for line in versions(args.magick):
        out(f"- {line}")
    out("")
    out("Ratios are the peer's time divided by ours, per round: **above 1, ours is faster**. Each cell gives the")
    out("median over the rounds and, in brackets, the lowest and highest round.")
    out("")

    verdicts = []
    out("## 1. Decode throughput, one image at a time")
    out("")
    out("Ours decodes to RGBA. Pillow and libvips give RGB for these JPEG, PNG, WebP, AVIF, HEIC and JPEG XL files;")
    out("for the GIF, Pillow's palette image is converted to RGBA (its palette indices alone: in a note) and libvips")
    out("gives RGBA. ImageMagick decodes into its 16-bit pixel cache, one thread, timed in batches (see README.md).")
    out("Ours and C decode on one thread; the peers with their decoders' default threads (the cores busy below).")
    out("")
    out("| class | ours ms | C ms | C / ours | Pillow | libvips | ImageMagick | faster of Pillow, libvips | target |")
    out("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    notes = []
    for name, format_, _, description in DECODE_CLASSES:
        t = times["decode"][name]
        skipped = comparison.skipped.get("decode", {}).get(name, {})
        for side, reason in skipped.items():
            notes.append(f"- {description}: {side_label(side, format_)} cannot read it here, so it is left out: "
                         f"{reason}")
        peers = [side for side in ("pillow", "vips") if side in t]
        if not peers:
            verdicts.append((f"decode {name}: no peer reads it here", False))
            out(f"| {description} | {ms_cell(t['ours'])} | {ms_cell(t['c'])} | {cell(per_round(t, 'c'))} | "
                f"{side_cell(t, 'pillow', skipped)} | {side_cell(t, 'vips', skipped)} | "
                f"{side_cell(t, 'magick', skipped)} | — | no peer |")
            continue
        best = per_round(t, peers)
        c_best = per_round(t, peers, ours="c")
        met = median(best) >= 1.0
        short = f"by {(1 - median(best)) * 100:.0f}%"
        c_over_ours = median(per_round(t, "c"))
        if met:
            verdict = "met"
        else:
            if median(c_best) < 1.0:
                verdict = f"not met ({short}): the C library is slower too"
            elif c_over_ours >= 0.98 and median(c_best) < 1.03:
                verdict = f"not met ({short}): ours is at the C library's speed, which is level with the peer"
            else:
                verdict = f"not met ({short})"
            notes.append(f"- {description}: the C library called directly reaches {median(c_best):.2f} of the faster"
                         f" peer's speed, ours {median(best):.2f} (C time / our time: {c_over_ours:.2f}).")
        verdicts.append((f"decode {name}", met))
        out(f"| {description} | {ms_cell(t['ours'])} | {ms_cell(t['c'])} | {cell(per_round(t, 'c'))} | "
            f"{side_cell(t, 'pillow', skipped)} | {side_cell(t, 'vips', skipped)} | "
            f"{side_cell(t, 'magick', skipped)} | {cell(best)} | {verdict} |")
        if "pillow-palette" in t:
            notes.append(f"- {description}, Pillow without the conversion to RGBA (palette indices only): "
                         f"{cell(per_round(t, 'pillow-palette'))}.")
    out("")
    lines.extend(notes)
    if notes:
        out("")
    out("Cores busy during a decode (the process's CPU time over the wall time, median over the rounds):")
    out("")
    out("| class | ours | C | Pillow | libvips |")
    out("|---|---:|---:|---:|---:|")
    for name, _, _, description in DECODE_CLASSES:
        t, cpu = times["decode"][name], times.get("decode-cpu", {}).get(name, {})
        busy = [cores_busy(t, cpu, side) for side in ("ours", "c", "pillow", "vips")]
        out(f"| {description} | " + " | ".join("—" if b is None else f"{median(b):.2f}" for b in busy) + " |")
    out("")

    out(f"## 2. Thumbnails: {extra['thumb_files']} JPEG files of 4000x3000 to {THUMBNAIL_SIZE} px")
    out("")
    t = times["thumb"]
    single = {side: v for side, v in t["single_ms"].items()}
    batch = {side: v for side, v in t["batch_ms_per_image"].items()}
    busy = t["batch_cores_busy"]
    threads = t["batch_threads"]
    cores = os.cpu_count()
    sides = ("ours", "pillow", "vips")
    # A side's batch time per image over its single time, per round: how much the batch gained from the cores.
    speedups = {side: [single[side][i] / batch[side][i] for i in range(len(batch[side]))] for side in sides}
    out("| | ours ms per image | Pillow draft + thumbnail | libvips thumbnail |")
    out("|---|---:|---:|---:|")
    out(f"| one at a time, one thread | {ms_cell(single['ours'])} | {cell(per_round(single, 'pillow'))} | "
        f"{cell(per_round(single, 'vips'))} |")
    out(f"| batch, every file once over {cores} cores | {ms_cell(batch['ours'])} | "
        f"{cell(per_round(batch, 'pillow'))} | {cell(per_round(batch, 'vips'))} |")
    out("")
    out("| batch | ours | Pillow | libvips |")
    out("|---|---:|---:|---:|")
    out("| threads that ran thumbnails | " + " | ".join(str(max(threads[side])) for side in sides) + " |")
    out("| cores busy (CPU time / wall time) | " + " | ".join(f"{median(busy[side]):.2f}" for side in sides) + " |")
    out("| speed-up over one at a time | " + " | ".join(cell(speedups[side]) for side in sides) + " |")
    out("")
    out("Ours runs the batch with `DispatchQueue.concurrentPerform`; the Python peers on a `ThreadPoolExecutor` "
        f"of {cores} threads.")
    out("")
    report_codec_thumbnails(comparison, out)
    thumb_met = median(per_round(single, "pillow")) >= 1.0 and median(per_round(batch, "pillow")) >= 1.0
    verdicts.append(("thumbnails at least as fast as Pillow, one at a time and in batches", thumb_met))
    threads_met = min(threads["ours"]) >= cores
    busy_met = median(busy["ours"]) >= 0.8 * cores
    label = f"thumbnail batches use all {cores} cores: {min(threads['ours'])} threads"
    if threads_met and not busy_met:
        label += (f", but the process got {median(busy['ours']):.2f} cores of CPU time (load from other"
                  " processes: see the load average)")
    else:
        label += f", {median(busy['ours']):.2f} cores busy"
    verdicts.append((label, threads_met and busy_met))

    out(f"## 3. The whole job: from nginx on loopback, {THUMBNAIL_SIZE} px thumbnails, disk cache, {WORKERS} at a time")
    out("")
    jobs = extra["jobs"]
    for key, title, _, _ in JOB_CORPORA:
        kinds = ", ".join(f"{count} {kind}" for kind, count in jobs[key]["kinds"].items())
        out(f"- {title}: {jobs[key]['images']} files, {jobs[key]['bytes'] / 1e6:.0f} MB ({kinds})")
    out("")
    t = times["job"]
    out("| corpus | pass | ours s | Python s | Python / ours | CPU s: ours, Python | codec work alone s | "
        "Python / codec work: the most reachable | target |")
    out("|---|---|---:|---:|---:|---|---:|---:|---|")
    explanations = []
    for key, title, _, why in JOB_CORPORA:
        images = jobs[key]["images"]
        for pass_name, goal in JOB_TARGETS:
            wall = t[f"{key}/{pass_name}"]
            cpu = t[f"{key}/{pass_name}-cpu"]
            ratios = per_round(wall, "python")
            met = median(ratios) >= goal
            # The codec work alone, over both cores: Python's time over it is the most ours could reach on this
            # machine with the libraries it links.
            codec = t[f"{key}/{pass_name}-codec"]["ours"]
            reachable = [wall["python"][i] / codec[i] for i in range(len(codec))]
            out_of_reach = median(reachable) < goal
            label = f"whole job, {title}, {pass_name} >= {goal:.0f}x"
            if out_of_reach:
                label += (f": out of reach with the libraries we link, whose work alone leaves at most "
                          f"{median(reachable):.2f}x")
            verdicts.append((label, met))
            verdict = "met" if met else ("not met: out of reach" if out_of_reach else "not met")
            out(f"| {title} | {pass_name} | {median(wall['ours']) / 1e3:.3f} | {median(wall['python']) / 1e3:.3f} | "
                f"{cell(ratios)} | {median(cpu['ours']) / 1e3:.2f}, {median(cpu['python']) / 1e3:.2f} | "
                f"{median(codec) / 1e3:.3f} | {cell(reachable)} | {goal:.0f}x: {verdict} |")
            # The ratio of wall times is the ratio of CPU times times the ratio of the cores each side kept busy:
            # which of the two the gap comes from.
            cpu_ratio = per_round(cpu, "python")
            busy = {side: [cpu[side][i] / wall[side][i] for i in range(len(wall[side]))] for side in ("ours", "python")}
            per_image = {side: median(cpu[side]) / images for side in ("ours", "python")}
            explanations.append(
                f"- {title}, {pass_name}: {median(ratios):.2f}x, the {goal:.0f}x target "
                f"{'met' if met else 'not met'}. CPU per image: ours {per_image['ours']:.2f} ms, Python "
                f"{per_image['python']:.2f} ms ({median(cpu_ratio):.2f}x ours); cores busy: ours "
                f"{median(busy['ours']):.2f}, Python {median(busy['python']):.2f} of {os.cpu_count()}"
                + ("." if met else f". Where the time goes: {why if pass_name == 'cold' else WARM_WHY}.")
                + f" The codec work alone takes {median(codec) / 1e3:.3f} s over both cores"
                f" ({median(t[f'{key}/{pass_name}-codec-cpu']['ours']) / images:.2f} ms of CPU per image), ours' pass"
                f" {median([wall['ours'][i] / codec[i] for i in range(len(codec))]):.2f} times that.")
    out("")
    lines.extend(explanations)
    out("")
    out("CPU s: the process's CPU time during the pass (user and system, all threads); over the wall time, the cores")
    out("the pass kept busy. The wall-time ratio is the CPU-time ratio times ours' cores busy over Python's: what is")
    out("left of the gap once both sides keep the cores busy is CPU work per image (see README.md for where it goes).")
    out("The warm pass runs in the same process right after the cold one, over the same directory with an empty")
    out("memory cache (ours: a new ImageCache and ImageManager; Python: a new pool).")
    out("")
    out("Codec work alone: the decoding and encoding each pass does, through our codecs, with the files already in")
    out("memory and no network, disk, cache or scheduling, spread over both cores (`PeerTiming codec`). Our codecs")
    out("run at the speed of the C libraries under them (section 1), so nothing built on the libraries we link")
    out("does the pass in less time here: Python's time over the codec work is the most ours could reach against")
    out("Python, however little the rest cost. Where that is below the target, the target is out of reach for the")
    out("job as defined (the same work on both sides) with these libraries.")
    out("")
    out("## Targets")
    out("")
    for label, met in verdicts:
        out(f"- {'met' if met else 'NOT met'}: {label}")
    out("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timing", required=True, help="the PeerTiming executable")
    parser.add_argument("--inputs", required=True, help="Benchmarks/Inputs")
    parser.add_argument("--corpus", required=True, help="the output of make_corpus.py")
    parser.add_argument("--base-url", required=True, help="where nginx serves the corpus directory")
    parser.add_argument("--magick", default="convert", help="ImageMagick's convert or magick")
    parser.add_argument("--results", required=True, help="the Markdown file to write")
    parser.add_argument("--quick", action="store_true", help="fewer rounds, shorter loops, half the files")
    parser.add_argument("--rounds", type=int, help="instead of 7 (3 with --quick)")
    args = parser.parse_args()
    args.rounds = args.rounds or (3 if args.quick else 7)
    args.seconds = 0.4 if args.quick else 1.0
    args.files = 8 if args.quick else 16
    args.codec_thumb_files = 2 if args.quick else 4
    args.web_files = 200 if args.quick else 400

    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()[0]
    comparison = Comparison(args)
    comparison.run()
    text = report(comparison, started, (load_before, os.getloadavg()[0]))
    print(text)
    with open(args.results, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
