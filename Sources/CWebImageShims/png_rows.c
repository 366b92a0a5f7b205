// A row-streaming PNG reader over libpng's progressive row API. libpng reports errors by longjmp, so the whole
// sequence from creating the read struct to destroying it lives in this one function: the setjmp is here, and the
// Swift callback is called from this frame between png_read_row calls, so a longjmp never crosses a Swift frame.

#include "CWebImageShims.h"

#include <png.h>
#include <setjmp.h>
#include <string.h>

/// The bytes being read and where the error message goes.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *message;
    size_t message_size;
} webimage_png_source;

static void webimage_png_set_message(webimage_png_source *source, const char *text) {
    if (source->message == NULL || source->message_size == 0) {
        return;
    }
    size_t length = strlen(text);
    if (length >= source->message_size) {
        length = source->message_size - 1;
    }
    memcpy(source->message, text, length);
    source->message[length] = '\0';
}

static void webimage_png_read_data(png_structp png, png_bytep out, size_t length) {
    webimage_png_source *source = (webimage_png_source *)png_get_io_ptr(png);
    if (length > source->size - source->offset) {
        png_error(png, "the data ends before the image does");
    }
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

static void webimage_png_on_error(png_structp png, png_const_charp text) {
    webimage_png_source *source = (webimage_png_source *)png_get_error_ptr(png);
    webimage_png_set_message(source, text != NULL ? text : "unknown libpng error");
    png_longjmp(png, 1);
}

static void webimage_png_on_warning(png_structp png, png_const_charp text) {
    // Warnings (a damaged ancillary chunk, an unknown chunk) do not stop the read.
    (void)png;
    (void)text;
}

webimage_png_rows_result webimage_png_read_rows(
    const uint8_t *data,
    size_t size,
    const webimage_png_limits *limits,
    uint8_t *row,
    size_t row_bytes,
    webimage_png_row_callback on_row,
    void *context,
    char *message,
    size_t message_size)
{
    webimage_png_source source = { data, size, 0, message, message_size };
    webimage_png_set_message(&source, "");

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, webimage_png_on_error,
                                             webimage_png_on_warning);
    if (png == NULL) {
        webimage_png_set_message(&source, "libpng could not allocate its read state");
        return WEBIMAGE_PNG_ROWS_FAILED;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        webimage_png_set_message(&source, "libpng could not allocate its info state");
        return WEBIMAGE_PNG_ROWS_FAILED;
    }

    // Only these locals change after setjmp and are read after a longjmp, so they are volatile.
    volatile webimage_png_rows_result result = WEBIMAGE_PNG_ROWS_FAILED;

    if (setjmp(png_jmpbuf(png))) {
        // libpng reported an error; the message is already in place.
        png_destroy_read_struct(&png, &info, NULL);
        return result;
    }

    png_set_read_fn(png, &source, webimage_png_read_data);
    png_set_user_limits(png, limits->max_width, limits->max_height);
    png_set_chunk_cache_max(png, limits->max_cached_chunks);
    png_set_chunk_malloc_max(png, limits->max_chunk_bytes);

    png_read_info(png, info);

    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        webimage_png_set_message(&source, "interlaced images cannot be read row by row");
        result = WEBIMAGE_PNG_ROWS_INTERLACED;
        png_destroy_read_struct(&png, &info, NULL);
        return result;
    }

    // To 8-bit sRGB RGBA whatever the colour type and bit depth, as the simplified API's PNG_FORMAT_RGBA.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_alpha_mode(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    png_read_update_info(png, info);

    png_uint_32 height = png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) != row_bytes || png_get_channels(png, info) != 4 ||
        png_get_bit_depth(png, info) != 8) {
        webimage_png_set_message(&source, "the row buffer does not match the image width");
        png_destroy_read_struct(&png, &info, NULL);
        return WEBIMAGE_PNG_ROWS_FAILED;
    }

    for (png_uint_32 y = 0; y < height; y++) {
        png_read_row(png, row, NULL);
        if (on_row(context, row, y) != 0) {
            result = WEBIMAGE_PNG_ROWS_STOPPED;
            png_destroy_read_struct(&png, &info, NULL);
            return result;
        }
    }

    // The rest of the file (trailing chunks, IEND) is not needed for the pixels and is not read.
    result = WEBIMAGE_PNG_ROWS_OK;
    png_destroy_read_struct(&png, &info, NULL);
    return result;
}
