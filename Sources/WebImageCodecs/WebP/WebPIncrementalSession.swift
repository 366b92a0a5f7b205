internal import CWebP
import WebImageCore

/// One still WebP being decoded by libwebp's incremental decoder (`WebPIDecoder`) straight into its final buffer.
///
/// libwebp keeps pointers to the decoder configuration (its output and options) for the decoder's whole life,
/// so the configuration lives in memory this object allocates and frees after the decoder is deleted. Bytes are
/// given with `WebPIAppend`, which copies them, so the caller's data need not outlive the call.
///
/// Not thread-safe: one call at a time, which its owner guarantees.
final class WebPIncrementalSession: @unchecked Sendable {
    // Sendable because it is only ever used by one thread at a time: ``WebPIncrementalDecoder`` takes it out of
    // its locked state for the length of one call, and its callers never overlap calls
    // (``IncrementalImageDecoding``'s contract). It may move between threads between calls.
    /// The final buffer libwebp writes into; complete once ``isComplete`` is true.
    let pixels: PixelBuffer
    /// Whether the file declares alpha.
    let hasAlpha: Bool
    /// Whether libwebp has decoded the whole image.
    private(set) var isComplete = false

    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private let decoder: OpaquePointer

    /// Starts decoding an image with `features` into a new buffer of `targetSize` (scaled by libwebp when smaller).
    ///
    /// - Throws: `imageTooLarge` when the buffer or libwebp's decoder cannot be allocated.
    init(features: WebPFeatures, targetSize: PixelSize) throws(WebImageError) {
        let action = "setting up the incremental decoder"
        let pixels = try PixelBuffer(uninitializedWidth: targetSize.width, height: targetSize.height)
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        guard WebPInitDecoderConfig(config) != 0 else {
            config.deallocate()
            throw WebPLibrary.failure(.decoding(VP8_STATUS_INVALID_PARAM), while: action)
        }
        config.pointee.setOutput(pixels, sourceSize: features.size)
        guard let decoder = WebPIDecode(nil, 0, config) else {
            config.deallocate()
            throw WebPLibrary.failure(.outOfMemory, while: action)
        }
        self.pixels = pixels
        self.hasAlpha = features.hasAlpha
        self.config = config
        self.decoder = decoder
    }

    deinit {
        WebPIDelete(decoder)
        WebPFreeDecBuffer(&config.pointee.output)
        config.deallocate()
    }

    /// Decodes as far as `bytes`, the next bytes of the file, allow.
    ///
    /// - Throws: `badImageData` when the data is malformed.
    func append(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard !isComplete, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let status = WebPIAppend(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        if status == VP8_STATUS_SUSPENDED { return }
        try WebPLibrary.check(.decoding(status), while: "decoding the image incrementally")
        isComplete = true
    }

    /// The number of rows, from the top, that libwebp has written so far.
    var decodedRows: Int {
        var lastY: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastY, nil, nil, nil) != nil else { return 0 }
        return max(0, min(Int(lastY), pixels.height))
    }

    /// A copy of the rows decoded so far, with the rows below them transparent; nil before the first row.
    ///
    /// The final buffer cannot be published while libwebp still writes into it, hence the copy.
    func snapshot() throws(WebImageError) -> PixelBuffer? {
        let rows = decodedRows
        guard rows > 0 else { return nil }
        let copy = try PixelBuffer(uninitializedWidth: pixels.width, height: pixels.height)
        let decodedBytes = rows * pixels.bytesPerRow
        copy.mutableBaseAddress.copyMemory(from: pixels.baseAddress, byteCount: decodedBytes)
        (copy.mutableBaseAddress + decodedBytes).initializeMemory(
            as: UInt8.self,
            repeating: 0,
            count: copy.byteCount - decodedBytes
        )
        return copy
    }
}
