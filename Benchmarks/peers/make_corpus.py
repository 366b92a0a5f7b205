"""Makes the generated part of the peer comparison's corpus from the two 4000 x 3000 photos in Benchmarks/Inputs
(made by Scripts/bench.sh or run.sh), deterministically: the same inputs and libvips version give the same files.

  python make_corpus.py INPUTS OUTDIR COUNT

OUTDIR/thumbs   COUNT JPEG files of 4000 x 3000: the noisy and the smooth photo in turn, each rolled by a
                different offset, every other one mirrored, its brightness shifted, saved at quality 80..95, 4:2:0.
OUTDIR/job      the files the loopback server serves for the whole-job comparison, 3 x COUNT in all: the COUNT
                thumbs above, COUNT JPEG of 1600 x 1200, COUNT / 2 PNG of 1200 x 900 (from the smooth
                photo), COUNT / 2 WebP of 2000 x 1500 (from the noisy one).
Files already present are kept.
"""
import os
import sys

import pyvips


def variant(photos, index):
    """A distinct 4000 x 3000 image: no two files decode alike, so that nothing is learned between decodes."""
    image = photos[index % len(photos)]
    image = image.wrap(x=(index * 613) % image.width, y=(index * 421) % image.height)
    if index % 2:
        image = image.fliphor()
    shift = (index % 7) * 4 - 12
    return image.linear([1, 1, 1], [shift, shift, shift]).cast("uchar")


def save(image, path, **options):
    if os.path.exists(path):
        return
    temporary = path + ".tmp" + os.path.splitext(path)[1]
    image.write_to_file(temporary, strip=True, **options)
    os.replace(temporary, path)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    inputs, outdir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    photos = [pyvips.Image.new_from_file(os.path.join(inputs, name), access="sequential").copy_memory()
              for name in ("photo-4000x3000.jpg", "photo-4000x3000-smooth.jpg")]
    thumbs = os.path.join(outdir, "thumbs")
    job = os.path.join(outdir, "job")
    os.makedirs(thumbs, exist_ok=True)
    os.makedirs(job, exist_ok=True)
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


if __name__ == "__main__":
    main()
