#ifndef WEBIMAGE_CPNG_SHIM_H
#define WEBIMAGE_CPNG_SHIM_H

#include <png.h>
#include <zlib.h>

// The simplified API's format and version values are macros built from other macros; Swift sees these constants.
static const unsigned int cpng_image_version = PNG_IMAGE_VERSION;
static const unsigned int cpng_format_rgba = PNG_FORMAT_RGBA;
static const unsigned int cpng_format_rgb = PNG_FORMAT_RGB;
static const unsigned int cpng_format_flag_alpha = PNG_FORMAT_FLAG_ALPHA;
static const unsigned int cpng_format_flag_colormap = PNG_FORMAT_FLAG_COLORMAP;
static const unsigned int cpng_format_flag_color = PNG_FORMAT_FLAG_COLOR;
static const unsigned int cpng_image_flag_16bit_srgb = PNG_IMAGE_FLAG_16BIT_sRGB;

// PNG_IMAGE_FAILED is a function-like macro: a warning is not a failure, an error is.
static inline int cpng_image_failed(const png_image *image) {
    return PNG_IMAGE_FAILED(*image);
}

// PNG_IMAGE_ROW_STRIDE and PNG_IMAGE_PNG_SIZE_MAX are function-like macros.
static inline size_t cpng_image_row_stride(const png_image *image) {
    return (size_t)PNG_IMAGE_ROW_STRIDE(*image);
}

// zlib's crc32 takes a uInt length; this wrapper keeps the call typed for Swift (APNG chunk rebuilding).
static inline unsigned long cpng_crc32(unsigned long crc, const unsigned char *bytes, unsigned int length) {
    return crc32(crc, bytes, length);
}

#endif
