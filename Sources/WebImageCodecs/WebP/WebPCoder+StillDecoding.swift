internal import CWebP
import WebImageCore

extension WebPCoder {
    /// Decodes a still image (lossy, lossless, with or without alpha) straight into its final buffer.
    ///
    /// The output size comes from the options and is checked against the pixel limit before the buffer is
    /// allocated. A thumbnail or scale-down is done by libwebp's scaled decoding straight into the final buffer.
    /// An opaque lossy image is decoded row by row, so a source over the pixel limit decodes reduced when a
    /// reduction was asked for; lossless images and images with alpha make libwebp hold a full-size plane, so
    /// their source size must be within the limit too, and that plane counts against the decode memory budget.
    func decodeStill(
        _ bytes: UnsafeRawBufferPointer,
        features: WebPFeatures,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> Image {
        let target = try Self.stillTargetSize(features, options: options)
        let pixels = try PixelBuffer(uninitializedWidth: target.width, height: target.height)

        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw WebPLibrary.failure(.decoding(VP8_STATUS_INVALID_PARAM), while: "setting up the decoder")
        }
        // Frees nothing while the output is external memory, but keeps that true if libwebp ever allocates.
        defer { WebPFreeDecBuffer(&config.output) }
        config.setOutput(pixels, sourceSize: features.size)

        let status = WebPDecode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
        try WebPLibrary.check(.decoding(status), while: "decoding the image")
        return Image(pixels: pixels, scale: options.effectiveScale, format: .webp, hasAlpha: features.hasAlpha)
    }

    /// The output size of a still image, after checking libwebp's full-size plane, if it needs one, against the
    /// pixel limit, and the decode's memory (see ``WebPMemoryEstimate``) against the decode memory budget.
    static func stillTargetSize(_ features: WebPFeatures, options: ImageDecodeOptions) throws(WebImageError) -> PixelSize {
        if features.needsFullSizePlane {
            try options.checkPixelLimit(features.size, format: .webp)
        }
        let target = try options.targetSize(for: features.size, format: .webp)
        try options.checkDecodeMemory(WebPMemoryEstimate.still(features, target: target), format: .webp)
        return target
    }
}
