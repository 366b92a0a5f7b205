#include "CRawCodecs.h"

#include <avif/avif.h>
#include <gif_lib.h>
#include <jxl/decode.h>
#include <libheif/heif.h>
#include <png.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <webp/decode.h>

// One decompressor kept for the whole run, as a program decoding many JPEGs would (the benchmark is single-threaded).
static tjhandle jpeg_handle;

int raw_jpeg_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    if (!jpeg_handle) jpeg_handle = tjInitDecompress();
    int subsampling, colorspace;
    if (tjDecompressHeader3(jpeg_handle, data, (unsigned long)size, width, height, &subsampling, &colorspace) != 0) return -1;
    unsigned char *pixels = out ? out : malloc((size_t)*width * (size_t)*height * 4);
    if (!pixels) return -1;
    int result = tjDecompress2(jpeg_handle, data, (unsigned long)size, pixels, *width, *width * 4, *height, TJPF_RGBA,
                               TJFLAG_LIMITSCANS);
    if (!out) free(pixels);
    return result;
}

int raw_png_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return -1;
    image.format = PNG_FORMAT_RGBA;
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    *width = (int)image.width;
    *height = (int)image.height;
    unsigned char *pixels = out ? out : malloc(PNG_IMAGE_SIZE(image));
    if (!pixels) { png_image_free(&image); return -1; }
    int ok = png_image_finish_read(&image, NULL, pixels, 0, NULL);
    if (!out) free(pixels);
    png_image_free(&image);
    return ok ? 0 : -1;
}

int raw_webp_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return -1;
    if (WebPGetFeatures(data, size, &config.input) != VP8_STATUS_OK) return -1;
    *width = config.input.width;
    *height = config.input.height;
    size_t bytes = (size_t)*width * (size_t)*height * 4;
    unsigned char *pixels = out ? out : malloc(bytes);
    if (!pixels) return -1;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = *width * 4;
    config.output.u.RGBA.size = bytes;
    VP8StatusCode status = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output);
    if (!out) free(pixels);
    return status == VP8_STATUS_OK ? 0 : -1;
}

// libjxl's decoder in one shot over the whole input: RGBA8, orientation applied, no thread runner, as JXLCoder.
int raw_jxl_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    if (!dec) return -1;
    int result = -1;
    unsigned char *pixels = NULL;
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    if (JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS) goto done;
    if (JxlDecoderSetInput(dec, data, size) != JXL_DEC_SUCCESS) goto done;
    JxlDecoderCloseInput(dec);
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(dec);
        if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo info;
            if (JxlDecoderGetBasicInfo(dec, &info) != JXL_DEC_SUCCESS) goto done;
            *width = (int)info.xsize;
            *height = (int)info.ysize;
        } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t bytes;
            if (JxlDecoderImageOutBufferSize(dec, &format, &bytes) != JXL_DEC_SUCCESS) goto done;
            pixels = out ? out : malloc(bytes);
            if (!pixels) goto done;
            if (JxlDecoderSetImageOutBuffer(dec, &format, pixels, bytes) != JXL_DEC_SUCCESS) goto done;
        } else if (status == JXL_DEC_FULL_IMAGE) {
            result = 0;
            goto done;
        } else {
            goto done;
        }
    }
done:
    if (!out) free(pixels);
    JxlDecoderDestroy(dec);
    return result;
}

struct gif_cursor { const unsigned char *data; size_t size, offset; };

static int gif_read(GifFileType *gif, GifByteType *bytes, int count) {
    struct gif_cursor *cursor = gif->UserData;
    size_t left = cursor->size - cursor->offset;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(bytes, cursor->data + cursor->offset, n);
    cursor->offset += n;
    return (int)n;
}

// Decodes the first frame of a GIF onto a transparent canvas: colour map lookup through a packed table,
// transparency, rows in interlaced order when the frame is interlaced.
int raw_gif_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    struct gif_cursor cursor = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&cursor, gif_read, &error);
    if (!gif) return -1;
    *width = gif->SWidth;
    *height = gif->SHeight;
    size_t bytes = (size_t)*width * (size_t)*height * 4;
    unsigned char *pixels = out ? out : malloc(bytes);
    unsigned char *row = malloc((size_t)*width);
    int transparent = -1, result = -1, done = 0;
    if (!pixels || !row) goto end;
    while (!done) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) goto end;
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *ext;
            if (DGifGetExtension(gif, &code, &ext) == GIF_ERROR) goto end;
            if (code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4 && (ext[1] & 1)) transparent = ext[4];
            while (ext) if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) goto end;
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) goto end;
            GifImageDesc *d = &gif->Image;
            ColorMapObject *map = d->ColorMap ? d->ColorMap : gif->SColorMap;
            if (!map || d->Left + d->Width > *width || d->Top + d->Height > *height) goto end;
            // Clear the canvas only where the frame leaves it uncovered.
            if (d->Left != 0 || d->Top != 0 || d->Width != *width || d->Height != *height) memset(pixels, 0, bytes);
            // The colour table as packed RGBA (transparent index and indices beyond the table: 0), so each
            // pixel is one load and one store.
            uint32_t table[256] = {0};
            for (int i = 0; i < map->ColorCount && i < 256; i++) {
                GifColorType c = map->Colors[i];
                unsigned char rgba[4] = {c.Red, c.Green, c.Blue, 255};
                memcpy(&table[i], rgba, 4);
            }
            if (transparent >= 0 && transparent < 256) table[transparent] = 0;
            static const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
            int passes = d->Interlace ? 4 : 1;
            for (int pass = 0; pass < passes; pass++) {
                int start = d->Interlace ? starts[pass] : 0, step = d->Interlace ? steps[pass] : 1;
                for (int y = start; y < d->Height; y += step) {
                    if (DGifGetLine(gif, row, d->Width) == GIF_ERROR) goto end;
                    uint32_t *dst = (uint32_t *)(pixels + ((size_t)(d->Top + y) * *width + d->Left) * 4);
                    for (int x = 0; x < d->Width; x++) dst[x] = table[row[x]];
                }
            }
            done = 1;
        } else if (type == TERMINATE_RECORD_TYPE) {
            goto end;
        }
    }
    result = 0;
end:
    free(row);
    if (!out) free(pixels);
    DGifCloseFile(gif, &error);
    return result;
}

// Decodes an AVIF's first image with libavif as AVIFCoder does: one thread, Exif and XMP ignored, converted to
// 8-bit RGBA with straight alpha.
int raw_avif_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    avifDecoder *decoder = avifDecoderCreate();
    if (!decoder) return -1;
    decoder->maxThreads = 1;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    decoder->strictFlags = AVIF_STRICT_ALPHA_ISPE_REQUIRED;
    int result = -1;
    if (avifDecoderSetIOMemory(decoder, data, size) != AVIF_RESULT_OK) goto done;
    if (avifDecoderParse(decoder) != AVIF_RESULT_OK) goto done;
    if (avifDecoderNextImage(decoder) != AVIF_RESULT_OK) goto done;
    *width = (int)decoder->image->width;
    *height = (int)decoder->image->height;
    size_t bytes = (size_t)*width * (size_t)*height * 4;
    unsigned char *pixels = out ? out : malloc(bytes);
    if (!pixels) goto done;
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.depth = 8;
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.pixels = pixels;
    rgb.rowBytes = (uint32_t)*width * 4;
    result = avifImageYUVToRGB(decoder->image, &rgb) == AVIF_RESULT_OK ? 0 : -1;
    if (!out) free(pixels);
done:
    avifDecoderDestroy(decoder);
    return result;
}

static pthread_once_t heif_once = PTHREAD_ONCE_INIT;
static int heif_initialised;

// libheif registers its decoders once, before the first context, as HEIFCoder has it do.
static void heif_initialise(void) {
    heif_initialised = heif_init(NULL).code == heif_error_Ok;
}

// Decodes a HEIF's primary image with libheif as HEIFCoder does: libheif initialised once, the file read from
// memory without a copy, tiles decoded on the calling thread (no decoding threads), HDR reduced to 8 bits,
// the file's transformations applied, to interleaved RGBA8. With `out` NULL the pixels stay in libheif's image,
// which is released, as the coder's image adopts that plane; otherwise they are copied row by row into `out`.
int raw_heif_decode(const unsigned char *data, size_t size, unsigned char *out, int *width, int *height) {
    pthread_once(&heif_once, heif_initialise);
    if (!heif_initialised) return -1;
    struct heif_context *context = heif_context_alloc();
    if (!context) return -1;
    int result = -1;
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = NULL;
    heif_context_set_max_decoding_threads(context, 0);
    if (heif_context_read_from_memory_without_copy(context, data, size, NULL).code != heif_error_Ok) goto done;
    if (heif_context_get_primary_image_handle(context, &handle).code != heif_error_Ok) goto done;
    options = heif_decoding_options_alloc();
    if (!options) goto done;
    options->convert_hdr_to_8bit = 1;
    options->ignore_transformations = 0;
    if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options).code
        != heif_error_Ok) goto done;
    *width = heif_image_get_width(image, heif_channel_interleaved);
    *height = heif_image_get_height(image, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (!plane || stride < *width * 4) goto done;
    if (out) {
        size_t row = (size_t)*width * 4;
        for (int y = 0; y < *height; y++) memcpy(out + (size_t)y * row, plane + (size_t)y * (size_t)stride, row);
    }
    result = 0;
done:
    if (image) heif_image_release(image);
    heif_decoding_options_free(options);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return result;
}
