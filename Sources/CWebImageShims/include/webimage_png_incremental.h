#ifndef WEBIMAGE_PNG_INCREMENTAL_H
#define WEBIMAGE_PNG_INCREMENTAL_H

// libpng's progressive reader, for PNG data that arrives in pieces. libpng reports errors by longjmp, so every
// libpng call happens inside one of these functions, each of which sets its own jump buffer first: a longjmp only
// ever unwinds C frames. Only standard C types appear here, and the limits struct of CWebImageShims.h, which
// includes this file after declaring it: include CWebImageShims.h rather than this file.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One progressive PNG decode: libpng's read state and the caller's canvas its rows go to. Opaque.
typedef struct webimage_png_incremental webimage_png_incremental;

/// The outcome of `webimage_png_incremental_feed`.
typedef enum {
    /// The bytes were taken; rows they completed are in the canvas.
    WEBIMAGE_PNG_INCREMENTAL_OK = 0,
    /// libpng reported an error (now or on an earlier call); the message buffer says which. The decoder takes
    /// no more bytes; its canvas keeps the rows decoded before the error.
    WEBIMAGE_PNG_INCREMENTAL_FAILED = 1,
} webimage_png_incremental_result;

/// How far a progressive decode has come.
typedef struct {
    /// Nonzero once libpng has read the chunks before the image data and set up its transforms.
    int has_header;
    /// Nonzero when the image is stored in Adam7 passes.
    int interlaced;
    /// The pass (0 to 6; 0 for a non-interlaced image) of the last row written to the canvas.
    int pass;
    /// The image row of the last row written to the canvas; meaningful once `rows_written` is not 0.
    uint32_t last_row;
    /// How many rows libpng has written to the canvas so far, over every pass (a row of an early pass repeated
    /// over the block it stands for counts once per row it fills): it grows whenever the canvas changes.
    uint64_t rows_written;
    /// Nonzero once libpng has read the `IEND` chunk.
    int ended;
} webimage_png_incremental_progress;

/// Starts a progressive decode whose rows go to `canvas`, transformed to 8-bit sRGB RGBA as
/// `webimage_png_read_rows` does (palette and low bit depths expanded, the transparent colour turned into alpha,
/// 16 bits scaled to 8, gray turned to RGB).
///
/// - `canvas` holds `height` rows of `bytes_per_row` bytes (at least `width` x 4), cleared by the caller; it must
///   stay valid until the decoder is destroyed. The image the data declares must be `width` x `height`.
/// - Rows of an interlaced image are written as browsers show them: each pixel of an early Adam7 pass fills the
///   block of the grid it stands for, until later passes refine it. Rows of other images are written once, in
///   order; the rows below them keep what the caller put there.
/// - `limits` bound what libpng accepts and allocates; they are copied.
/// - Returns NULL, with a message in `message` (NUL-terminated, cut to `message_size`), when libpng cannot
///   allocate its state.
webimage_png_incremental *webimage_png_incremental_create(
    const webimage_png_limits *limits,
    uint8_t *canvas,
    uint32_t width,
    uint32_t height,
    size_t bytes_per_row,
    char *message,
    size_t message_size);

/// Gives the decoder the next `size` bytes of the file (the ones after those given before) and decodes as far
/// as they allow. Bytes after the `IEND` chunk are ignored.
///
/// - `message` receives libpng's message (NUL-terminated, cut to `message_size`) when the result is FAILED.
webimage_png_incremental_result webimage_png_incremental_feed(
    webimage_png_incremental *decoder,
    const uint8_t *data,
    size_t size,
    char *message,
    size_t message_size);

/// Fills `progress` with how far the decode has come.
void webimage_png_incremental_get_progress(
    const webimage_png_incremental *decoder,
    webimage_png_incremental_progress *progress);

/// Frees libpng's state and the decoder (not the canvas, which is the caller's). NULL is ignored.
void webimage_png_incremental_destroy(webimage_png_incremental *decoder);

#ifdef __cplusplus
}
#endif

#endif
