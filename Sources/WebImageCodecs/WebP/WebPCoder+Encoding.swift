#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebP
import WebImageCore

extension WebPCoder {
    /// Encodes `image` as WebP: a still image, or an animation when the image has several frames.
    ///
    /// Lossy by default, with ``ImageEncodeOptions/quality`` 0...1 as libwebp's quality 0...100 and the alpha
    /// channel kept losslessly. With ``ImageEncodeOptions/lossless`` the pixels come back exactly, including
    /// the colour of transparent pixels; the quality does not apply then (libwebp's default effort is used).
    /// ``ImageEncodeOptions/maxPixelSize`` scales the frames down first and
    /// ``ImageEncodeOptions/firstFrameOnly`` writes only the first frame. Animations keep the frame durations
    /// (to the millisecond) and the loop count, and a frame that does not change the canvas may be merged into
    /// the frame before it. Lossless and opaque animations go through libwebp's animation encoder, which stores
    /// only what changes between frames; when lossy it takes small differences, alpha included, for no change, so
    /// a lossy animation with transparency is written as whole frames instead, each encoded as a still image, and
    /// keeps its alpha losslessly too.
    ///
    /// Lossy, ``ImageEncodeOptions/maxFileSize`` replaces the quality with a search for the highest quality that
    /// fits, then for the largest size (every frame scaled alike) that fits at
    /// ``ImageEncodeOptions/fileSizeQualityFloor``; when nothing fits, the smallest file made is returned.
    /// Lossless encoding ignores it.
    ///
    /// - Throws: `unsupportedFormat` unless `format` is WebP; `encodingFailed` when a side is over 16383 pixels
    ///   or libwebp fails.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard canEncode(to: format) else {
            throw .unsupportedFormat(format, "encode")
        }
        let frames = try image.framesForEncoding(options, animated: true)
        let size = frames[0].pixels.size
        let limit = Int(WEBP_MAX_DIMENSION)
        guard size.width <= limit, size.height <= limit else {
            throw WebImageError(.encodingFailed, "WEBP: \(size) is larger than WebP's limit of \(limit) pixels a side")
        }
        let config = try Self.encoderConfig(options)
        guard let limit = options.fileSizeLimit, !options.lossless else {
            return try encodeFrames(frames, loopCount: image.loopCount, config: config)
        }
        let search = FileSizeSearch(limit: limit, hasAlpha: image.hasAlpha)
        return try search.run(frames) { frames, quality throws(WebImageError) in
            var config = config
            config.quality = Float(quality * 100)
            return try encodeFrames(frames, loopCount: image.loopCount, config: config)
        }.data
    }

    /// A still image for one frame, an animation for several.
    private func encodeFrames(_ frames: [ImageFrame], loopCount: Int, config: WebPConfig) throws(WebImageError) -> Data {
        if frames.count == 1 {
            return try encodeStill(frames[0].pixels, config: config)
        }
        return try encodeAnimation(frames, loopCount: loopCount, config: config)
    }

    /// One `WebPEncode` call writing into libwebp's memory writer.
    func encodeStill(_ pixels: PixelBuffer, config: WebPConfig) throws(WebImageError) -> Data {
        var config = config
        // Lossless works on ARGB; lossy is imported straight to YUV, skipping an ARGB copy.
        return try Self.withPicture(of: pixels, useARGB: config.lossless != 0) { picture throws(WebImageError) in
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            let succeeded = withUnsafeMutablePointer(to: &writer) { writerPointer in
                picture.writer = WebPMemoryWrite
                picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                defer {
                    picture.writer = nil
                    picture.custom_ptr = nil
                }
                return WebPEncode(&config, &picture)
            }
            guard succeeded != 0 else {
                try WebPLibrary.check(.encoding(picture.error_code), while: "encoding the image")
                throw WebPLibrary.failure(.encoderFailed(""), while: "encoding the image")
            }
            guard let memory = writer.mem, writer.size > 0 else {
                throw WebPLibrary.failure(.encoderFailed("the encoder wrote nothing"), while: "encoding the image")
            }
            return Data(bytes: memory, count: writer.size)
        }
    }

    /// The encoder configuration for `options`.
    static func encoderConfig(_ options: ImageEncodeOptions) throws(WebImageError) -> WebPConfig {
        let action = "configuring the encoder"
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw WebPLibrary.failure(.encoding(VP8_ENC_ERROR_INVALID_CONFIGURATION), while: action)
        }
        if options.lossless {
            config.lossless = 1
            // Keep the colour of transparent pixels, so that lossless means every byte comes back.
            config.exact = 1
        } else {
            config.quality = Float(options.clampedQuality * 100)
        }
        guard WebPValidateConfig(&config) != 0 else {
            throw WebPLibrary.failure(.encoding(VP8_ENC_ERROR_INVALID_CONFIGURATION), while: action)
        }
        return config
    }

    /// Calls `body` with a picture holding `pixels`, imported with `WebPPictureImportRGBA`; the picture's memory
    /// is freed when `body` returns.
    ///
    /// - Parameter useARGB: Import as ARGB (lossless, animation) rather than YUV (lossy).
    static func withPicture<R>(
        of pixels: PixelBuffer,
        useARGB: Bool,
        _ body: (inout WebPPicture) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        let action = "importing the pixels"
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw WebPLibrary.failure(.encoding(VP8_ENC_ERROR_INVALID_CONFIGURATION), while: action)
        }
        // Frees what the import allocates, also when the import fails half way; a no-op on an empty picture.
        defer { WebPPictureFree(&picture) }
        picture.use_argb = useARGB ? 1 : 0
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        let imported = pixels.withUnsafeBytes { bytes in
            WebPPictureImportRGBA(
                &picture,
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                Int32(pixels.bytesPerRow)
            )
        }
        guard imported != 0 else {
            try WebPLibrary.check(.encoding(picture.error_code), while: action)
            throw WebPLibrary.failure(.encoding(VP8_ENC_ERROR_OUT_OF_MEMORY), while: action)
        }
        return try body(&picture)
    }
}
