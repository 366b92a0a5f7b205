#ifndef WEBIMAGE_JPEG_INCREMENTAL_H
#define WEBIMAGE_JPEG_INCREMENTAL_H

// Incremental JPEG decoding over libjpeg's own API (TurboJPEG has no incremental decoder). libjpeg reports errors
// by longjmp, so every function here that calls libjpeg sets its own setjmp: a longjmp only unwinds C frames and
// never reaches Swift. Only standard C types appear here; the libjpeg state is behind an opaque handle.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One incremental JPEG decode: libjpeg's decompressor, its suspending data source and where decoding is.
typedef struct webimage_jpeg_decoder webimage_jpeg_decoder;

/// What a call to `webimage_jpeg_decoder_feed` reached.
typedef enum {
    /// More data is needed before anything new can be shown (the output buffer is unchanged).
    WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA = 0,
    /// The header has been read: the progress gives the stored size; call `webimage_jpeg_decoder_set_scale`,
    /// then feed again with an output buffer.
    WEBIMAGE_JPEG_INCREMENTAL_HEADER_READY = 1,
    /// The output buffer has new pixels: more rows of a sequential file, or a whole frame after a further scan
    /// of a progressive one.
    WEBIMAGE_JPEG_INCREMENTAL_UPDATED = 2,
    /// Every row has been written (the last scan of a progressive file); later feeds do nothing.
    WEBIMAGE_JPEG_INCREMENTAL_COMPLETE = 3,
    /// The colour space (CMYK, YCCK) is not decoded incrementally; later feeds return this again.
    WEBIMAGE_JPEG_INCREMENTAL_UNSUPPORTED = 4,
    /// libjpeg reported an error, or a limit was hit; the message says which. Later feeds return this again.
    WEBIMAGE_JPEG_INCREMENTAL_FAILED = 5,
} webimage_jpeg_incremental_status;

/// Bounds the decoder enforces on hostile data.
typedef struct {
    /// The widest and tallest stored image accepted, in pixels (0: JPEG's own limit of 65500).
    uint32_t max_width;
    uint32_t max_height;
    /// The most bytes libjpeg may allocate for its whole-image buffers, such as a progressive file's
    /// coefficients (libjpeg's `max_memory_to_use`; 0: no limit).
    size_t max_memory;
    /// The most scans accepted, as TurboJPEG's TJFLAG_LIMITSCANS (0: no limit).
    uint32_t max_scans;
} webimage_jpeg_limits;

/// Where a decode is, filled in by `webimage_jpeg_decoder_feed` and `webimage_jpeg_decoder_set_scale`.
typedef struct {
    /// The stored size from the frame header; 0 until the header has been read.
    uint32_t width;
    uint32_t height;
    /// The size libjpeg decodes to at the chosen scale; 0 until `webimage_jpeg_decoder_set_scale`.
    uint32_t output_width;
    uint32_t output_height;
    /// Whether libjpeg keeps the whole image's coefficients (a progressive or multi-scan file), whose partial
    /// images are whole frames that gain quality scan by scan.
    int has_multiple_scans;
    /// Whether the components are CMYK or YCCK (decoded only by the one-shot path).
    int is_cmyk;
    /// Rows of the output buffer, from the top, that hold decoded pixels (all of them after a scan).
    uint32_t rows_valid;
    /// The scan number of the last whole-frame output pass; 0 before the first (and for sequential files).
    uint32_t scans_shown;
} webimage_jpeg_progress;

/// Creates a decoder; nil when memory runs out. `limits` is copied.
webimage_jpeg_decoder *webimage_jpeg_decoder_create(const webimage_jpeg_limits *limits);

/// Frees the decoder and everything libjpeg holds for it; safe at any point of the decode and with nil.
void webimage_jpeg_decoder_destroy(webimage_jpeg_decoder *decoder);

/// Sets the DCT scaling (`scale_num` / `scale_denom`, as TurboJPEG's factors, 1/8 to 1/1) once the header is
/// read, and gives the output size it makes in `progress`. Returns HEADER_READY, or FAILED for a call at another
/// point or a size over the limits.
webimage_jpeg_incremental_status webimage_jpeg_decoder_set_scale(
    webimage_jpeg_decoder *decoder,
    uint32_t scale_num,
    uint32_t scale_denom,
    webimage_jpeg_progress *progress,
    char *message,
    size_t message_size);

/// Decodes as far as the data allows.
///
/// - `data` / `size`: every byte received so far, from the first (not only the new ones); the decoder resumes
///   after the bytes libjpeg consumed on the previous call. The bytes already given must not change.
/// - `finished`: whether this is all the data; a file cut short then ends with a fake end-of-image marker, as
///   libjpeg's own sources do, and its missing pixels come out grey.
/// - `pixels`: the output buffer, `output_height` rows of `row_bytes` bytes (at least `output_width` x 4), RGBA
///   with alpha 255, owned by the caller and passed again on every call; nil until the header is read and the
///   scale set. Rows not yet decoded are left as they are. It is not kept after the call returns.
/// - `message`: receives libjpeg's message (NUL-terminated, cut to `message_size`) for FAILED and UNSUPPORTED.
webimage_jpeg_incremental_status webimage_jpeg_decoder_feed(
    webimage_jpeg_decoder *decoder,
    const uint8_t *data,
    size_t size,
    int finished,
    uint8_t *pixels,
    size_t row_bytes,
    size_t pixel_bytes,
    webimage_jpeg_progress *progress,
    char *message,
    size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
