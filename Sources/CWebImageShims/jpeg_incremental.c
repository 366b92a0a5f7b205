// Incremental JPEG decoding with libjpeg's own API: a suspending data source over the bytes received so far,
// sequential files read row by row, progressive (and other multi-scan) files in buffered-image mode with one
// output pass for the latest complete scan.
//
// libjpeg reports errors by longjmp. Each public function that calls libjpeg sets its setjmp before its first
// libjpeg call; the static helpers below run only under that setjmp, so a longjmp unwinds only C frames of this
// file and never a Swift frame. After a longjmp the decoder is marked failed, libjpeg's state is freed at once,
// and every later call returns the failure with the same message.

#include "CWebImageShims.h"

#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// Where a decode is.
typedef enum {
    /// Reading the markers up to the first scan.
    PHASE_HEADER,
    /// The header is read; waiting for `webimage_jpeg_decoder_set_scale`.
    PHASE_AWAITING_SCALE,
    /// The scale is set; decompression starts on the next feed with an output buffer.
    PHASE_READY,
    /// A single-scan file: rows come out top to bottom as their data arrives.
    PHASE_SEQUENTIAL,
    /// A progressive or multi-scan file in buffered-image mode: scans are absorbed, whole frames come out.
    PHASE_BUFFERED,
    /// Every row written; libjpeg's state is freed.
    PHASE_COMPLETE,
    /// A colour space this decoder does not handle; libjpeg's state is freed.
    PHASE_UNSUPPORTED,
    /// An error; libjpeg's state is freed.
    PHASE_FAILED,
} webimage_jpeg_phase;

/// libjpeg's error manager with the jump back to the public function that called libjpeg.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} webimage_jpeg_error;

struct webimage_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    webimage_jpeg_error error;
    struct jpeg_source_mgr source;
    webimage_jpeg_limits limits;
    webimage_jpeg_phase phase;
    /// Whether `cinfo` holds libjpeg state that `jpeg_destroy_decompress` must free.
    int has_cinfo;

    /// Bytes of the stream libjpeg has consumed, as of the end of the last feed.
    size_t position;
    /// A skip libjpeg asked for beyond the bytes there were; done when more arrive.
    size_t pending_skip;
    /// The length of the data given on the last feed.
    size_t given_end;
    /// Whether the data given is all there will be.
    int finished;
    /// Whether the source has handed libjpeg its fake end-of-image marker.
    int gave_fake_eoi;

    uint32_t width;
    uint32_t height;
    uint32_t output_width;
    uint32_t output_height;
    int has_multiple_scans;
    int is_cmyk;
    uint32_t rows_valid;
    uint32_t scans_shown;

    char message[JMSG_LENGTH_MAX];
};

// MARK: - Messages

static void webimage_jpeg_copy_text(char *destination, size_t destination_size, const char *text) {
    if (destination == NULL || destination_size == 0) {
        return;
    }
    size_t length = strlen(text);
    if (length >= destination_size) {
        length = destination_size - 1;
    }
    memcpy(destination, text, length);
    destination[length] = '\0';
}

static void webimage_jpeg_set_message(webimage_jpeg_decoder *decoder, const char *text) {
    webimage_jpeg_copy_text(decoder->message, sizeof decoder->message, text);
}

static void webimage_jpeg_fill_progress(const webimage_jpeg_decoder *decoder, webimage_jpeg_progress *progress) {
    if (progress == NULL) {
        return;
    }
    progress->width = decoder->width;
    progress->height = decoder->height;
    progress->output_width = decoder->output_width;
    progress->output_height = decoder->output_height;
    progress->has_multiple_scans = decoder->has_multiple_scans;
    progress->is_cmyk = decoder->is_cmyk;
    progress->rows_valid = decoder->rows_valid;
    progress->scans_shown = decoder->scans_shown;
}

/// Frees libjpeg's state (buffers, coefficient arrays) and moves to a final phase.
static void webimage_jpeg_release(webimage_jpeg_decoder *decoder, webimage_jpeg_phase phase) {
    if (decoder->has_cinfo) {
        jpeg_destroy_decompress(&decoder->cinfo);
        decoder->has_cinfo = 0;
    }
    decoder->phase = phase;
}

/// Ends the decode with `text` as the message, without a longjmp.
static webimage_jpeg_incremental_status webimage_jpeg_fail(webimage_jpeg_decoder *decoder, const char *text) {
    webimage_jpeg_set_message(decoder, text);
    webimage_jpeg_release(decoder, PHASE_FAILED);
    return WEBIMAGE_JPEG_INCREMENTAL_FAILED;
}

// MARK: - Error manager

static void webimage_jpeg_on_error(j_common_ptr cinfo) {
    webimage_jpeg_decoder *decoder = (webimage_jpeg_decoder *)cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, decoder->message);
    longjmp(decoder->error.jump, 1);
}

static void webimage_jpeg_on_message(j_common_ptr cinfo, int level) {
    // Warnings (damaged entropy data, a premature end) are counted, never printed: the partial images are best
    // effort, and the final image comes from the one-shot decode, which judges them.
    if (level < 0) {
        cinfo->err->num_warnings++;
    }
}

static void webimage_jpeg_on_output(j_common_ptr cinfo) {
    (void)cinfo;
}

// MARK: - Suspending source

static void webimage_jpeg_source_init(j_decompress_ptr cinfo) {
    (void)cinfo;
}

static boolean webimage_jpeg_source_fill(j_decompress_ptr cinfo) {
    webimage_jpeg_decoder *decoder = (webimage_jpeg_decoder *)cinfo->client_data;
    if (!decoder->finished) {
        // Suspend. libjpeg has not moved the source fields past the unit it was reading (it backtracks to its
        // start), so the bytes from next_input_byte on are the ones still to be consumed.
        return FALSE;
    }
    // All the data there will be has been read: end it with a fake EOI marker, as libjpeg's memory source does,
    // so that the rest of the image comes out grey rather than as an error.
    static const JOCTET fake_eoi[2] = { 0xFF, JPEG_EOI };
    WARNMS(cinfo, JWRN_JPEG_EOF);
    cinfo->src->next_input_byte = fake_eoi;
    cinfo->src->bytes_in_buffer = sizeof fake_eoi;
    decoder->gave_fake_eoi = 1;
    return TRUE;
}

static void webimage_jpeg_source_skip(j_decompress_ptr cinfo, long count) {
    if (count <= 0) {
        return;
    }
    webimage_jpeg_decoder *decoder = (webimage_jpeg_decoder *)cinfo->client_data;
    struct jpeg_source_mgr *source = cinfo->src;
    if ((unsigned long)count <= source->bytes_in_buffer) {
        source->next_input_byte += count;
        source->bytes_in_buffer -= (size_t)count;
        return;
    }
    // Beyond the bytes there are: remember the rest, done on a later feed (or ended by the fake EOI).
    decoder->pending_skip += (size_t)count - source->bytes_in_buffer;
    source->next_input_byte += source->bytes_in_buffer;
    source->bytes_in_buffer = 0;
}

static void webimage_jpeg_source_term(j_decompress_ptr cinfo) {
    (void)cinfo;
}

/// Points the source at the bytes of `data` libjpeg has not consumed yet.
static void webimage_jpeg_source_load(webimage_jpeg_decoder *decoder, const uint8_t *data, size_t size) {
    size_t resume = decoder->position + decoder->pending_skip;
    if (resume > size) {
        decoder->pending_skip = resume - size;
        resume = size;
    } else {
        decoder->pending_skip = 0;
    }
    decoder->position = resume;
    decoder->source.next_input_byte = size > 0 ? data + resume : NULL;
    decoder->source.bytes_in_buffer = size - resume;
    decoder->given_end = size;
}

/// Records how far libjpeg got in the data of this feed (the data pointer is not kept).
static void webimage_jpeg_source_save(webimage_jpeg_decoder *decoder) {
    if (decoder->gave_fake_eoi) {
        decoder->position = decoder->given_end;
    } else {
        decoder->position = decoder->given_end - decoder->source.bytes_in_buffer;
    }
    decoder->source.next_input_byte = NULL;
    decoder->source.bytes_in_buffer = 0;
}

// MARK: - Phases (run only under a public function's setjmp)

static webimage_jpeg_incremental_status webimage_jpeg_read_header(webimage_jpeg_decoder *decoder) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    if (jpeg_read_header(cinfo, TRUE) == JPEG_SUSPENDED) {
        return WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA;
    }
    decoder->width = cinfo->image_width;
    decoder->height = cinfo->image_height;
    decoder->has_multiple_scans = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
    decoder->is_cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    if (cinfo->image_width > decoder->limits.max_width || cinfo->image_height > decoder->limits.max_height) {
        char text[JMSG_LENGTH_MAX];
        snprintf(text, sizeof text, "the image is %u x %u pixels, over the limit of %u x %u",
                 (unsigned)cinfo->image_width, (unsigned)cinfo->image_height,
                 (unsigned)decoder->limits.max_width, (unsigned)decoder->limits.max_height);
        return webimage_jpeg_fail(decoder, text);
    }
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        break;
    default:
        webimage_jpeg_set_message(decoder, decoder->is_cmyk
            ? "CMYK and YCCK images are not decoded incrementally"
            : "the colour space is not decoded incrementally");
        webimage_jpeg_release(decoder, PHASE_UNSUPPORTED);
        return WEBIMAGE_JPEG_INCREMENTAL_UNSUPPORTED;
    }
    // libjpeg-turbo turns grey, RGB and YCbCr alike into RGBA with alpha 255.
    cinfo->out_color_space = JCS_EXT_RGBA;
    decoder->phase = PHASE_AWAITING_SCALE;
    return WEBIMAGE_JPEG_INCREMENTAL_HEADER_READY;
}

static webimage_jpeg_incremental_status webimage_jpeg_start(webimage_jpeg_decoder *decoder) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    cinfo->buffered_image = decoder->has_multiple_scans ? TRUE : FALSE;
    if (!jpeg_start_decompress(cinfo)) {
        return WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA;
    }
    if (cinfo->output_width != decoder->output_width || cinfo->output_height != decoder->output_height ||
        cinfo->output_components != 4) {
        return webimage_jpeg_fail(decoder, "libjpeg's output does not match the scale that was set");
    }
    decoder->phase = decoder->has_multiple_scans ? PHASE_BUFFERED : PHASE_SEQUENTIAL;
    return WEBIMAGE_JPEG_INCREMENTAL_UPDATED;
}

/// Reads into `pixels` the rows of the current output pass that the data allows; returns the rows read.
static JDIMENSION webimage_jpeg_read_rows(j_decompress_ptr cinfo, uint8_t *pixels, size_t row_bytes) {
    JSAMPROW rows[16];
    JDIMENSION before = cinfo->output_scanline;
    while (cinfo->output_scanline < cinfo->output_height) {
        JDIMENSION count = cinfo->output_height - cinfo->output_scanline;
        if (count > 16) {
            count = 16;
        }
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = pixels + (size_t)(cinfo->output_scanline + i) * row_bytes;
        }
        if (jpeg_read_scanlines(cinfo, rows, count) == 0) {
            break;  // suspended
        }
    }
    return cinfo->output_scanline - before;
}

static webimage_jpeg_incremental_status webimage_jpeg_sequential(webimage_jpeg_decoder *decoder, uint8_t *pixels,
                                                                 size_t row_bytes) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    JDIMENSION read = webimage_jpeg_read_rows(cinfo, pixels, row_bytes);
    decoder->rows_valid = cinfo->output_scanline;
    if (cinfo->output_scanline == cinfo->output_height) {
        // The trailing markers are not needed for the pixels and are not read.
        webimage_jpeg_release(decoder, PHASE_COMPLETE);
        return WEBIMAGE_JPEG_INCREMENTAL_COMPLETE;
    }
    return read > 0 ? WEBIMAGE_JPEG_INCREMENTAL_UPDATED : WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA;
}

static webimage_jpeg_incremental_status webimage_jpeg_buffered(webimage_jpeg_decoder *decoder, uint8_t *pixels,
                                                               size_t row_bytes) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    // Absorb every byte there is into the coefficient buffer.
    int result;
    do {
        result = jpeg_consume_input(cinfo);
        if (result == JPEG_REACHED_SOS && decoder->limits.max_scans > 0 &&
            (uint32_t)cinfo->input_scan_number > decoder->limits.max_scans) {
            char text[JMSG_LENGTH_MAX];
            snprintf(text, sizeof text, "the image has more than %u scans", (unsigned)decoder->limits.max_scans);
            return webimage_jpeg_fail(decoder, text);
        }
    } while (result != JPEG_SUSPENDED && result != JPEG_REACHED_EOI);

    // A scan is complete once the next one has started, or the end-of-image marker has been read. Showing only
    // complete scans keeps the output pass from waiting for input, and jpeg_finish_output from suspending.
    int input_complete = jpeg_input_complete(cinfo);
    int latest = input_complete ? cinfo->input_scan_number : cinfo->input_scan_number - 1;
    if (latest <= 0 || (uint32_t)latest <= decoder->scans_shown) {
        if (input_complete && decoder->scans_shown > 0) {
            webimage_jpeg_release(decoder, PHASE_COMPLETE);
            return WEBIMAGE_JPEG_INCREMENTAL_COMPLETE;
        }
        return WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA;
    }
    // One output pass for the latest complete scan; the scans between the last shown one and it are never shown.
    jpeg_start_output(cinfo, latest);
    webimage_jpeg_read_rows(cinfo, pixels, row_bytes);
    if (cinfo->output_scanline < cinfo->output_height) {
        return webimage_jpeg_fail(decoder, "the output pass of a complete scan ran out of data");
    }
    if (!jpeg_finish_output(cinfo)) {
        return webimage_jpeg_fail(decoder, "finishing the output pass of a complete scan ran out of data");
    }
    decoder->scans_shown = (uint32_t)latest;
    decoder->rows_valid = decoder->output_height;
    if (input_complete) {
        webimage_jpeg_release(decoder, PHASE_COMPLETE);
        return WEBIMAGE_JPEG_INCREMENTAL_COMPLETE;
    }
    return WEBIMAGE_JPEG_INCREMENTAL_UPDATED;
}

/// Runs the phases as far as the data goes.
static webimage_jpeg_incremental_status webimage_jpeg_advance(webimage_jpeg_decoder *decoder, uint8_t *pixels,
                                                              size_t row_bytes, size_t pixel_bytes) {
    if (decoder->phase == PHASE_HEADER) {
        return webimage_jpeg_read_header(decoder);
    }
    if (decoder->phase == PHASE_AWAITING_SCALE) {
        return WEBIMAGE_JPEG_INCREMENTAL_HEADER_READY;
    }
    if (pixels == NULL || row_bytes == 0 || row_bytes / 4 < decoder->output_width ||
        pixel_bytes / row_bytes < decoder->output_height) {
        return webimage_jpeg_fail(decoder, "the output buffer is smaller than the scaled image");
    }
    if (decoder->phase == PHASE_READY) {
        webimage_jpeg_incremental_status started = webimage_jpeg_start(decoder);
        if (started != WEBIMAGE_JPEG_INCREMENTAL_UPDATED) {
            return started;
        }
    }
    if (decoder->phase == PHASE_SEQUENTIAL) {
        return webimage_jpeg_sequential(decoder, pixels, row_bytes);
    }
    return webimage_jpeg_buffered(decoder, pixels, row_bytes);
}

/// The status a decoder in a final phase keeps returning, with its message.
static int webimage_jpeg_is_final(const webimage_jpeg_decoder *decoder, webimage_jpeg_incremental_status *status) {
    switch (decoder->phase) {
    case PHASE_COMPLETE:
        *status = WEBIMAGE_JPEG_INCREMENTAL_COMPLETE;
        return 1;
    case PHASE_UNSUPPORTED:
        *status = WEBIMAGE_JPEG_INCREMENTAL_UNSUPPORTED;
        return 1;
    case PHASE_FAILED:
        *status = WEBIMAGE_JPEG_INCREMENTAL_FAILED;
        return 1;
    default:
        return 0;
    }
}

// MARK: - Public functions

webimage_jpeg_decoder *webimage_jpeg_decoder_create(const webimage_jpeg_limits *limits) {
    webimage_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) {
        return NULL;
    }
    if (limits != NULL) {
        decoder->limits = *limits;
    }
    if (decoder->limits.max_width == 0 || decoder->limits.max_width > JPEG_MAX_DIMENSION) {
        decoder->limits.max_width = JPEG_MAX_DIMENSION;
    }
    if (decoder->limits.max_height == 0 || decoder->limits.max_height > JPEG_MAX_DIMENSION) {
        decoder->limits.max_height = JPEG_MAX_DIMENSION;
    }
    decoder->cinfo.err = jpeg_std_error(&decoder->error.pub);
    decoder->error.pub.error_exit = webimage_jpeg_on_error;
    decoder->error.pub.emit_message = webimage_jpeg_on_message;
    decoder->error.pub.output_message = webimage_jpeg_on_output;
    decoder->cinfo.client_data = decoder;   // kept by jpeg_create_decompress
    decoder->phase = PHASE_HEADER;

    if (setjmp(decoder->error.jump)) {
        // libjpeg could not allocate its state; jpeg_destroy_decompress frees whatever it had.
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->has_cinfo = 1;

    decoder->source.init_source = webimage_jpeg_source_init;
    decoder->source.fill_input_buffer = webimage_jpeg_source_fill;
    decoder->source.skip_input_data = webimage_jpeg_source_skip;
    decoder->source.resync_to_restart = jpeg_resync_to_restart;
    decoder->source.term_source = webimage_jpeg_source_term;
    decoder->cinfo.src = &decoder->source;
    if (decoder->limits.max_memory > 0) {
        // With no backing store, libjpeg fails cleanly when its whole-image arrays would need more than this.
        decoder->cinfo.mem->max_memory_to_use =
            decoder->limits.max_memory > (size_t)LONG_MAX ? LONG_MAX : (long)decoder->limits.max_memory;
    }
    return decoder;
}

void webimage_jpeg_decoder_destroy(webimage_jpeg_decoder *decoder) {
    if (decoder == NULL) {
        return;
    }
    webimage_jpeg_release(decoder, PHASE_FAILED);
    free(decoder);
}

webimage_jpeg_incremental_status webimage_jpeg_decoder_set_scale(
    webimage_jpeg_decoder *decoder,
    uint32_t scale_num,
    uint32_t scale_denom,
    webimage_jpeg_progress *progress,
    char *message,
    size_t message_size)
{
    webimage_jpeg_copy_text(message, message_size, "");
    webimage_jpeg_incremental_status status;
    if (webimage_jpeg_is_final(decoder, &status)) {
        webimage_jpeg_fill_progress(decoder, progress);
        webimage_jpeg_copy_text(message, message_size, decoder->message);
        return status;
    }
    if (decoder->phase != PHASE_AWAITING_SCALE) {
        webimage_jpeg_fail(decoder, "the scale can only be set once, after the header is read");
    } else if (scale_num == 0 || scale_denom == 0 || scale_num > scale_denom) {
        webimage_jpeg_fail(decoder, "the scale must be a fraction from 1/8 to 1/1");
    } else if (setjmp(decoder->error.jump)) {
        webimage_jpeg_release(decoder, PHASE_FAILED);
    } else {
        decoder->cinfo.scale_num = scale_num;
        decoder->cinfo.scale_denom = scale_denom;
        jpeg_calc_output_dimensions(&decoder->cinfo);
        decoder->output_width = decoder->cinfo.output_width;
        decoder->output_height = decoder->cinfo.output_height;
        decoder->phase = PHASE_READY;
    }
    webimage_jpeg_fill_progress(decoder, progress);
    if (decoder->phase == PHASE_FAILED) {
        webimage_jpeg_copy_text(message, message_size, decoder->message);
        return WEBIMAGE_JPEG_INCREMENTAL_FAILED;
    }
    return WEBIMAGE_JPEG_INCREMENTAL_HEADER_READY;
}

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
    size_t message_size)
{
    webimage_jpeg_copy_text(message, message_size, "");
    webimage_jpeg_incremental_status status;
    if (webimage_jpeg_is_final(decoder, &status)) {
        webimage_jpeg_fill_progress(decoder, progress);
        if (status != WEBIMAGE_JPEG_INCREMENTAL_COMPLETE) {
            webimage_jpeg_copy_text(message, message_size, decoder->message);
        }
        return status;
    }
    if ((data == NULL && size > 0) || size < decoder->given_end) {
        status = webimage_jpeg_fail(decoder, "the data is shorter than on the previous call");
        webimage_jpeg_fill_progress(decoder, progress);
        webimage_jpeg_copy_text(message, message_size, decoder->message);
        return status;
    }
    int newly_finished = finished && !decoder->finished;
    if (size == decoder->given_end && !newly_finished && decoder->phase != PHASE_READY &&
        decoder->phase != PHASE_AWAITING_SCALE && decoder->given_end > 0) {
        // No new bytes: libjpeg would only suspend again.
        webimage_jpeg_fill_progress(decoder, progress);
        return WEBIMAGE_JPEG_INCREMENTAL_NEEDS_DATA;
    }
    decoder->finished = finished ? 1 : 0;
    webimage_jpeg_source_load(decoder, data, size);

    if (setjmp(decoder->error.jump)) {
        // libjpeg reported an error; its message is already in place.
        webimage_jpeg_release(decoder, PHASE_FAILED);
        webimage_jpeg_fill_progress(decoder, progress);
        webimage_jpeg_copy_text(message, message_size, decoder->message);
        return WEBIMAGE_JPEG_INCREMENTAL_FAILED;
    }
    status = webimage_jpeg_advance(decoder, pixels, row_bytes, pixel_bytes);
    webimage_jpeg_source_save(decoder);
    webimage_jpeg_fill_progress(decoder, progress);
    if (status == WEBIMAGE_JPEG_INCREMENTAL_FAILED || status == WEBIMAGE_JPEG_INCREMENTAL_UNSUPPORTED) {
        webimage_jpeg_copy_text(message, message_size, decoder->message);
    }
    return status;
}
