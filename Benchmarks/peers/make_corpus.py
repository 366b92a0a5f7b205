"""Makes the generated part of the peer comparison's corpus from the two 4000 x 3000 photos in Benchmarks/Inputs
(made by Scripts/bench.sh or run.sh), deterministically: the same inputs and libvips version give the same files.

  python make_corpus.py INPUTS OUTDIR COUNT [WEBCOUNT]

OUTDIR/thumbs   COUNT JPEG files of 4000 x 3000: the noisy and the smooth photo in turn, each rolled by a
                different offset, every other one mirrored, its brightness shifted, saved at quality 80..95, 4:2:0.
OUTDIR/thumbs-avif, thumbs-heic, thumbs-jxl
                4 files of 4000 x 3000 each, the images of the first 4 thumbs, encoded as Scripts/bench.sh encodes its
                AVIF, HEIC and JPEG XL inputs: avifenc at its default quality and speed 8, heif-enc at its default
                quality, cjxl at distance 1 (about 20 seconds a format the first time).
OUTDIR/job      the files the loopback server serves for the whole-job comparison, 3 x COUNT in all: the COUNT
                thumbs above, COUNT JPEG of 1600 x 1200, COUNT / 2 PNG of 1200 x 900 (from the smooth
                photo), COUNT / 2 WebP of 2000 x 1500 (from the noisy one).
OUTDIR/web      WEBCOUNT (default 400) web-size files for the second whole-job corpus, each a crop of one of the
                two photos at its own offset, aspect ratio and scale, every other one mirrored, brightness shifted:
                of every ten, eight JPEG (640 to 1600 px on the long side, quality 75 to 85, 4:2:0), one PNG (400 to
                800 px, from the smooth photo) and one WebP (640 to 1200 px, quality 75 to 85).
Files already present are kept.
"""
import os
import subprocess
import sys
import tempfile

import pyvips


def variant(photos, index):
    """A distinct 4000 x 3000 image: no two files decode alike, so that nothing is learned between decodes."""
    image = photos[index % len(photos)]
    image = image.wrap(x=(index * 613) % image.width, y=(index * 421) % image.height)
    if index % 2:
        image = image.fliphor()
    shift = (index % 7) * 4 - 12
    return image.linear([1, 1, 1], [shift, shift, shift]).cast("uchar")


# Width over height of the web files: landscape photos, squares, portraits, banners.
ASPECTS = [(4, 3), (3, 2), (16, 9), (1, 1), (3, 4), (2, 3), (4, 5)]


def web_file(photos, index):
    """The name, image and save options of web file `index`, chosen from the index alone."""
    kind = index % 10
    if kind == 3:
        extension, photo, low, high = "png", photos[1], 400, 800
        options = {"compression": 6}
    elif kind == 7:
        extension, photo, low, high = "webp", photos[0], 640, 1200
        options = {"Q": 75 + (index * 3) % 11}
    else:
        extension, photo, low, high = "jpg", photos[index % 2], 640, 1600
        options = {"Q": 75 + (index * 3) % 11, "subsample_mode": "on"}
    long_side = low + (index * 397) % (high - low + 1)
    aspect_w, aspect_h = ASPECTS[(index * 5 + index // 10) % len(ASPECTS)]
    if aspect_w >= aspect_h:
        width, height = long_side, round(long_side * aspect_h / aspect_w)
    else:
        width, height = round(long_side * aspect_w / aspect_h), long_side
    # A crop of the target's aspect ratio, from 40% to all of the largest that fits, at an offset of its own.
    largest = min(photo.width / width, photo.height / height)
    scale = largest * (0.4 + 0.6 * ((index * 7919) % 1000) / 999)
    crop_w, crop_h = min(photo.width, round(width * scale)), min(photo.height, round(height * scale))
    left = (index * 613) % (photo.width - crop_w + 1)
    top = (index * 421) % (photo.height - crop_h + 1)
    image = photo.crop(left, top, crop_w, crop_h)
    if index % 2:
        image = image.fliphor()
    image = image.resize(width / crop_w, vscale=height / crop_h, kernel="lanczos3")
    shift = (index % 7) * 4 - 12
    image = image.linear([1, 1, 1], [shift, shift, shift]).cast("uchar")
    return f"web-{index:03d}.{extension}", image, options


# The command that encodes a PNG into each format, as Scripts/bench.sh makes its inputs: (SOURCE, TARGET) -> argv.
ENCODERS = {
    "avif": lambda source, target: ["avifenc", "-j", "1", "-s", "8", source, target],
    "heic": lambda source, target: ["heif-enc", source, "-o", target],
    "jxl": lambda source, target: ["cjxl", "--quiet", "-d", "1", source, target],
}
CODEC_THUMB_COUNT = 4


def encode(image, path, format_):
    """Saves `image` to `path` in `format_` through the format's command-line encoder, from a temporary PNG."""
    if os.path.exists(path):
        return
    with tempfile.TemporaryDirectory(dir=os.path.dirname(path)) as scratch:
        source = os.path.join(scratch, "source.png")
        image.write_to_file(source, strip=True, compression=1)
        temporary = os.path.join(scratch, "encoded" + os.path.splitext(path)[1])
        subprocess.run(ENCODERS[format_](source, temporary), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        os.replace(temporary, path)


def save(image, path, **options):
    if os.path.exists(path):
        return
    temporary = path + ".tmp" + os.path.splitext(path)[1]
    image.write_to_file(temporary, strip=True, **options)
    os.replace(temporary, path)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    inputs, outdir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    web_count = int(sys.argv[4]) if len(sys.argv) == 5 else 400
    photos = [pyvips.Image.new_from_file(os.path.join(inputs, name), access="sequential").copy_memory()
              for name in ("photo-4000x3000.jpg", "photo-4000x3000-smooth.jpg")]
    thumbs = os.path.join(outdir, "thumbs")
    job = os.path.join(outdir, "job")
    os.makedirs(thumbs, exist_ok=True)
    web = os.path.join(outdir, "web")
    os.makedirs(job, exist_ok=True)
    os.makedirs(web, exist_ok=True)
    for i in range(count):
        image = variant(photos, i)
        quality = 80 + (i % 4) * 5
        save(image, os.path.join(thumbs, f"photo-{i:02d}.jpg"), Q=quality, subsample_mode="on")
        if not os.path.exists(os.path.join(job, f"large-{i:02d}.jpg")):
            os.link(os.path.join(thumbs, f"photo-{i:02d}.jpg"), os.path.join(job, f"large-{i:02d}.jpg"))
        save(image.resize(0.4, kernel="lanczos3"), os.path.join(job, f"medium-{i:02d}.jpg"),
             Q=quality, subsample_mode="on")
        # PNG from the smooth photo, which PNG suits; WebP from the noisy one.
        if i % 2:
            save(image.resize(0.3, kernel="lanczos3"), os.path.join(job, f"small-{i // 2:02d}.png"), compression=6)
        else:
            save(image.resize(0.5, kernel="lanczos3"), os.path.join(job, f"medium-{i // 2:02d}.webp"), Q=80)
    for format_ in ENCODERS:
        directory = os.path.join(outdir, f"thumbs-{format_}")
        os.makedirs(directory, exist_ok=True)
        for i in range(CODEC_THUMB_COUNT):
            encode(variant(photos, i), os.path.join(directory, f"photo-{i:02d}.{format_}"), format_)
    for i in range(web_count):
        name, image, options = web_file(photos, i)
        save(image, os.path.join(web, name), **options)


if __name__ == "__main__":
    main()
