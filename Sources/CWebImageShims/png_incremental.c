// A progressive PNG reader over libpng's push API (png_process_data). libpng reports errors by longjmp, so every
// function here that calls into libpng sets the jump buffer first, and libpng's callbacks (header, row, end) are
// C functions that call no Swift: a longjmp never crosses a Swift frame. After a longjmp libpng's state is
// undefined, so a failed decoder takes no more bytes; it is only destroyed.

#include "CWebImageShims.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct webimage_png_incremental {
    png_structp png;
    png_infop info;
    uint8_t *canvas;
    uint32_t width;
    uint32_t height;
    size_t bytes_per_row;
    /// Where the current call wants libpng's error message.
    char *message;
    size_t message_size;
    int failed;
    webimage_png_incremental_progress progress;
};

static void webimage_png_incremental_copy_message(char *message, size_t message_size, const char *text) {
    if (message == NULL || message_size == 0) {
        return;
    }
    size_t length = strlen(text);
    if (length >= message_size) {
        length = message_size - 1;
    }
    memcpy(message, text, length);
    message[length] = '\0';
}

static void webimage_png_incremental_set_message(webimage_png_incremental *decoder, const char *text) {
    webimage_png_incremental_copy_message(decoder->message, decoder->message_size, text);
}

static void webimage_png_incremental_on_error(png_structp png, png_const_charp text) {
    webimage_png_incremental *decoder = (webimage_png_incremental *)png_get_error_ptr(png);
    webimage_png_incremental_set_message(decoder, text != NULL ? text : "unknown libpng error");
    png_longjmp(png, 1);
}

static void webimage_png_incremental_on_warning(png_structp png, png_const_charp text) {
    // Warnings (a damaged ancillary chunk, an unknown chunk) do not stop the read.
    (void)png;
    (void)text;
}

/// The chunks before the image data have been read: checks the size and sets the transforms.
static void webimage_png_incremental_on_info(png_structp png, png_infop info) {
    webimage_png_incremental *decoder = (webimage_png_incremental *)png_get_progressive_ptr(png);
    if (png_get_image_width(png, info) != decoder->width || png_get_image_height(png, info) != decoder->height) {
        png_error(png, "the image size differs from the size the decoder was made for");
    }
    decoder->progress.interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;

    // To 8-bit sRGB RGBA whatever the colour type and bit depth, as webimage_png_read_rows.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_alpha_mode(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    // libpng expands each pass's rows to the full width and repeats them over the rows of their blocks.
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);

    if (png_get_rowbytes(png, info) != (size_t)decoder->width * 4 || png_get_channels(png, info) != 4 ||
        png_get_bit_depth(png, info) != 8 || decoder->bytes_per_row < (size_t)decoder->width * 4) {
        png_error(png, "the row buffer does not match the image width");
    }
    decoder->progress.has_header = 1;
}

/// A row of the current pass (or NULL for a row the pass does not reach): merges it into the canvas.
static void webimage_png_incremental_on_row(png_structp png, png_bytep row, png_uint_32 y, int pass) {
    webimage_png_incremental *decoder = (webimage_png_incremental *)png_get_progressive_ptr(png);
    if (row == NULL || y >= decoder->height) {
        return;
    }
    // With "blocky display", libpng copies each pixel of the pass over the width of its Adam7 block; for a
    // non-interlaced image, or the last pass, it copies the row whole.
    png_progressive_combine_row(png, decoder->canvas + (size_t)y * decoder->bytes_per_row, row);
    decoder->progress.pass = pass;
    decoder->progress.last_row = y;
    decoder->progress.rows_written += 1;
}

static void webimage_png_incremental_on_end(png_structp png, png_infop info) {
    (void)info;
    webimage_png_incremental *decoder = (webimage_png_incremental *)png_get_progressive_ptr(png);
    decoder->progress.ended = 1;
}

webimage_png_incremental *webimage_png_incremental_create(
    const webimage_png_limits *limits,
    uint8_t *canvas,
    uint32_t width,
    uint32_t height,
    size_t bytes_per_row,
    char *message,
    size_t message_size)
{
    webimage_png_incremental *decoder = (webimage_png_incremental *)calloc(1, sizeof(webimage_png_incremental));
    if (decoder == NULL) {
        webimage_png_incremental_copy_message(message, message_size, "the incremental PNG decoder could not be allocated");
        return NULL;
    }
    decoder->canvas = canvas;
    decoder->width = width;
    decoder->height = height;
    decoder->bytes_per_row = bytes_per_row;
    decoder->message = message;
    decoder->message_size = message_size;
    webimage_png_incremental_set_message(decoder, "");

    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, webimage_png_incremental_on_error,
                                          webimage_png_incremental_on_warning);
    if (decoder->png == NULL) {
        webimage_png_incremental_set_message(decoder, "libpng could not allocate its read state");
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        webimage_png_incremental_set_message(decoder, "libpng could not allocate its info state");
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        // libpng reported an error while being set up; the message is already in place.
        png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
        free(decoder);
        return NULL;
    }
    png_set_progressive_read_fn(decoder->png, decoder, webimage_png_incremental_on_info,
                                webimage_png_incremental_on_row, webimage_png_incremental_on_end);
    png_set_user_limits(decoder->png, limits->max_width, limits->max_height);
    png_set_chunk_cache_max(decoder->png, limits->max_cached_chunks);
    png_set_chunk_malloc_max(decoder->png, limits->max_chunk_bytes);
    decoder->message = NULL;
    decoder->message_size = 0;
    return decoder;
}

/// Ends a call: the caller's message buffer is valid only during it.
static webimage_png_incremental_result webimage_png_incremental_end_call(
    webimage_png_incremental *decoder,
    webimage_png_incremental_result result)
{
    decoder->message = NULL;
    decoder->message_size = 0;
    return result;
}

webimage_png_incremental_result webimage_png_incremental_feed(
    webimage_png_incremental *decoder,
    const uint8_t *data,
    size_t size,
    char *message,
    size_t message_size)
{
    decoder->message = message;
    decoder->message_size = message_size;
    webimage_png_incremental_set_message(decoder, "");
    if (decoder->failed) {
        webimage_png_incremental_set_message(decoder, "an earlier error stopped the decoder");
        return webimage_png_incremental_end_call(decoder, WEBIMAGE_PNG_INCREMENTAL_FAILED);
    }
    if (size == 0 || data == NULL || decoder->progress.ended) {
        // Nothing to read, or bytes after IEND, which are not part of the image.
        return webimage_png_incremental_end_call(decoder, WEBIMAGE_PNG_INCREMENTAL_OK);
    }

    if (setjmp(png_jmpbuf(decoder->png))) {
        // libpng reported an error; the message is already in place. Its state is now undefined.
        decoder->failed = 1;
        return webimage_png_incremental_end_call(decoder, WEBIMAGE_PNG_INCREMENTAL_FAILED);
    }
    // libpng does not write through this pointer: the push API is declared with a non-const buffer only.
    png_process_data(decoder->png, decoder->info, (png_bytep)(uintptr_t)data, size);
    return webimage_png_incremental_end_call(decoder, WEBIMAGE_PNG_INCREMENTAL_OK);
}

void webimage_png_incremental_get_progress(
    const webimage_png_incremental *decoder,
    webimage_png_incremental_progress *progress)
{
    *progress = decoder->progress;
}

void webimage_png_incremental_destroy(webimage_png_incremental *decoder) {
    if (decoder == NULL) {
        return;
    }
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}
