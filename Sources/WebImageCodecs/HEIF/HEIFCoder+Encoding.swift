#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CHEIF
import WebImageCore

extension HEIFCoder {
    /// Encodes the first frame of `image` as HEIC with libheif's HEVC encoder (x265), when this process has one
    /// (``canEncode(to:)``).
    ///
    /// Lossy by default, with ``ImageEncodeOptions/quality`` 0...1 as libheif's quality 0...100
    /// (`heif_encoder_set_lossy_quality`) in 4:2:0 colour; ``ImageEncodeOptions/lossless`` asks the encoder for
    /// lossless coding, which still stores 4:2:0 YCbCr, so colours come back close, not exact. An image with
    /// transparent pixels keeps its alpha as an auxiliary image. ``ImageEncodeOptions/maxPixelSize`` scales the
    /// image down first and ``ImageEncodeOptions/maxFileSize`` searches for the highest quality, then the
    /// largest size, that fits. HEIF holds no animation here: only the first frame is written.
    ///
    /// - Throws: `unsupportedFormat` unless `format` is HEIC and an HEVC encoder exists; `encodingFailed` when
    ///   libheif or the encoder fails.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard canEncode(to: format) else {
            throw .unsupportedFormat(format, "encode")
        }
        let frames = try image.framesForEncoding(options, animated: false)
        let hasAlpha = image.hasAlpha && !frames[0].pixels.isOpaque
        guard let limit = options.fileSizeLimit, !options.lossless else {
            return try Self.encodeStill(frames[0].pixels, hasAlpha: hasAlpha, quality: options.clampedQuality, lossless: options.lossless)
        }
        let search = FileSizeSearch(limit: limit, hasAlpha: hasAlpha)
        return try search.run(frames) { frames, quality throws(WebImageError) in
            try Self.encodeStill(frames[0].pixels, hasAlpha: hasAlpha, quality: quality, lossless: false)
        }.data
    }

    /// One image in a new context, encoded and written to memory.
    static func encodeStill(_ pixels: PixelBuffer, hasAlpha: Bool, quality: Double, lossless: Bool) throws(WebImageError) -> Data {
        _ = HEIFLibrary.isInitialised
        guard let context = heif_context_alloc() else {
            throw WebImageError(.encodingFailed, "HEIC: libheif could not allocate a context")
        }
        defer { heif_context_free(context) }

        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), while: "finding the HEVC encoder")
        guard let encoder else {
            throw WebImageError(.encodingFailed, "HEIC: libheif has no HEVC encoder")
        }
        defer { heif_encoder_release(encoder) }
        if lossless {
            try check(heif_encoder_set_lossless(encoder, 1), while: "asking for lossless coding")
        } else {
            let value = Int32((quality * 100).rounded())
            try check(heif_encoder_set_lossy_quality(encoder, value), while: "setting the quality to \(value)")
        }

        try withHEIFImage(of: pixels, hasAlpha: hasAlpha) { image throws(WebImageError) in
            try check(heif_context_encode_image(context, image, encoder, nil, nil), while: "encoding the image")
        }
        return try write(context)
    }

    /// Calls `body` with a new libheif image holding `pixels` as interleaved RGB or RGBA, released when `body`
    /// returns.
    private static func withHEIFImage(
        of pixels: PixelBuffer,
        hasAlpha: Bool,
        _ body: (OpaquePointer) throws(WebImageError) -> Void
    ) throws(WebImageError) {
        let width = Int32(clamping: pixels.width)
        let height = Int32(clamping: pixels.height)
        var created: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try check(heif_image_create(width, height, heif_colorspace_RGB, chroma, &created), while: "creating the image")
        guard let image = created else {
            throw WebImageError(.encodingFailed, "HEIC: libheif created no image")
        }
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, width, height, 8), while: "adding the pixel plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            throw WebImageError(.encodingFailed, "HEIC: libheif gave no pixel plane")
        }
        let channels = hasAlpha ? 4 : 3
        pixels.withUnsafeBytes { source in
            for y in 0..<pixels.height {
                let from = source.baseAddress! + y * pixels.bytesPerRow
                let to = plane + y * Int(stride)
                if hasAlpha {
                    UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: pixels.width * 4)
                    continue
                }
                let rgba = from.assumingMemoryBound(to: UInt8.self)
                for x in 0..<pixels.width {
                    to[x * channels] = rgba[x * 4]
                    to[x * channels + 1] = rgba[x * 4 + 1]
                    to[x * channels + 2] = rgba[x * 4 + 2]
                }
            }
        }
        try body(image)
    }

    /// The file libheif writes for `context`, collected through a writer into memory.
    private static func write(_ context: OpaquePointer) throws(WebImageError) -> Data {
        var output = Data()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, bytes, count, userData in
            if let bytes, count > 0, let userData {
                userData.assumingMemoryBound(to: Data.self).pointee.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEIFCoder.successMessage)
        }
        let error = withUnsafeMutablePointer(to: &output) { pointer in
            heif_context_write(context, &writer, pointer)
        }
        try check(error, while: "writing the file")
        guard !output.isEmpty else {
            throw WebImageError(.encodingFailed, "HEIC: libheif wrote nothing")
        }
        return output
    }

    /// The message of the writer's successful result: libheif's errors always carry one.
    private static var successMessage: UnsafePointer<CChar> {
        UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// ``HEIFLibrary/check(_:_:format:while:)`` for encoding.
    private static func check(_ error: heif_error, while action: @autoclosure () -> String) throws(WebImageError) {
        try HEIFLibrary.check(error, .encoding, format: .heic, while: action())
    }
}
