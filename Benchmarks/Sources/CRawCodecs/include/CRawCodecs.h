#ifndef WEBIMAGE_BENCH_RAW_CODECS_H
#define WEBIMAGE_BENCH_RAW_CODECS_H

#include <stddef.h>

// Baselines for the benchmarks: decode with each C library called directly, to RGBA8, with the same flags as
// the library's coders. With `out` NULL the pixels go into a fresh malloc'd buffer that is freed before the
// function returns, as an Image's buffer is; otherwise into `out` (reused between calls), which must hold
// width * height * 4 bytes. Return 0 on success and set *width and *height.

int raw_jpeg_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);
int raw_png_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);
int raw_webp_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);
int raw_jxl_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);
int raw_gif_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);
int raw_avif_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);
int raw_heif_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height);

#endif
