#ifndef WEBIMAGE_SHIMS_H
#define WEBIMAGE_SHIMS_H

// C helpers for the few library sequences that need setjmp/longjmp, which Swift must not cross. Each one runs
// a whole sequence inside one C function, so that a longjmp only ever unwinds C frames. Only standard C types
// appear here, so that Swift code importing this module needs no library headers.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of `webimage_png_read_rows`.
typedef enum {
    /// Every row was read and handed to the callback.
    WEBIMAGE_PNG_ROWS_OK = 0,
    /// libpng reported an error; the message buffer says which.
    WEBIMAGE_PNG_ROWS_FAILED = 1,
    /// The callback asked to stop.
    WEBIMAGE_PNG_ROWS_STOPPED = 2,
    /// The image is interlaced, which a row-by-row reader cannot stream.
    WEBIMAGE_PNG_ROWS_INTERLACED = 3,
} webimage_png_rows_result;

/// Bounds the reader enforces on hostile data.
typedef struct {
    /// The widest and tallest image accepted, in pixels.
    uint32_t max_width;
    uint32_t max_height;
    /// The most ancillary chunks kept (the rest are dropped).
    uint32_t max_cached_chunks;
    /// The most bytes libpng may allocate for one chunk.
    size_t max_chunk_bytes;
} webimage_png_limits;

/// Called once for each row, top to bottom, between libpng calls; returns nonzero to stop reading.
/// `row` holds `width` RGBA pixels, 8 bits a channel, and is valid only during the call.
typedef int (*webimage_png_row_callback)(void *context, const uint8_t *row, uint32_t y);

/// Reads a non-interlaced PNG from memory row by row, transformed to 8-bit sRGB RGBA (palette and low bit
/// depths expanded, the transparent colour turned into alpha, 16 bits scaled to 8, gray turned to RGB), and
/// hands each row to `on_row`.
///
/// - `row` is a buffer of `row_bytes` bytes that must equal the image's width x 4; it receives each row.
/// - `message` receives libpng's message (NUL-terminated, cut to `message_size`) when the result is FAILED.
webimage_png_rows_result webimage_png_read_rows(
    const uint8_t *data,
    size_t size,
    const webimage_png_limits *limits,
    uint8_t *row,
    size_t row_bytes,
    webimage_png_row_callback on_row,
    void *context,
    char *message,
    size_t message_size);

#ifdef __cplusplus
}
#endif

#include "webimage_jpeg_incremental.h"
#include "webimage_png_incremental.h"

#endif
