internal import CJXL
import WebImageCore

/// One still JPEG XL being decoded by libjxl as its bytes arrive, into a full-size canvas that starts
/// transparent.
///
/// Each update gives libjxl the bytes it has not consumed yet (`JxlDecoderSetInput`), decodes until it needs
/// more (`JXL_DEC_NEED_MORE_INPUT`), and takes the input back (`JxlDecoderReleaseInput`) before the bytes go
/// away; the bytes libjxl left unconsumed are given again with the next update. A partial image is made on
/// demand with `JxlDecoderFlushImage`, which renders what has been decoded so far into the canvas: the
/// low-resolution pass of a progressive file first, then its groups as they arrive.
///
/// Not thread-safe: one call at a time, which its owner guarantees.
final class JXLIncrementalSession: @unchecked Sendable {
    // Sendable because it is only ever used by one thread at a time: ``PhasedIncrementalDecoder`` hands it from
    // one call to the next, and its callers never overlap calls (``IncrementalImageDecoding``'s contract).
    /// The headers.
    let header: JXLHeader
    /// The size of the partial images.
    let target: PixelSize
    /// The orientation the images report (the stored one when it is kept, else up).
    let orientation: ImageOrientation
    /// Whether libjxl has decoded the whole image.
    private(set) var isComplete = false

    private let canvas: PixelBuffer
    private let decoder: OpaquePointer
    /// Bytes of the data libjxl has consumed.
    private var consumed = 0
    /// Whether libjxl has been given the canvas, which it does once the frame has begun.
    private var hasOutput = false

    /// Starts decoding the image `header` describes, at full size into a new canvas.
    ///
    /// - Throws: `imageTooLarge` when the canvas or libjxl's decoder cannot be allocated.
    init(header: JXLHeader, target: PixelSize, keepingOrientation keeps: Bool) throws(WebImageError) {
        let action = "setting up the incremental decoder"
        let canvasSize = header.canvasSize(keepingOrientation: keeps)
        let canvas = try PixelBuffer(width: canvasSize.width, height: canvasSize.height, color: .clear)
        guard let decoder = JxlDecoderCreate(nil) else {
            throw JXLLibrary.failure(.outOfMemory, while: action)
        }
        self.decoder = decoder
        self.canvas = canvas
        self.header = header
        self.target = target
        self.orientation = keeps ? header.orientation : .up
        // Every stored property is set: a failure below runs deinit, which destroys the decoder.
        let events = JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        try JXLLibrary.check(.decoding(JxlDecoderSubscribeEvents(decoder, Int32(truncatingIfNeeded: events))), while: action)
        try JXLLibrary.check(.decoding(JxlDecoderSetKeepOrientation(decoder, keeps ? cjxl_true : cjxl_false)), while: action)
        if header.isAlphaPremultiplied {
            try JXLLibrary.check(.decoding(JxlDecoderSetUnpremultiplyAlpha(decoder, cjxl_true)), while: action)
        }
    }

    deinit {
        JxlDecoderDestroy(decoder)
    }

    /// Decodes as far as `bytes`, every byte of the file received so far, allow.
    ///
    /// - Throws: `badImageData` when the data is malformed.
    func append(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard !isComplete, bytes.count > consumed, let base = bytes.baseAddress else { return }
        let action = "decoding the image incrementally"
        let start = base.assumingMemoryBound(to: UInt8.self) + consumed
        try JXLLibrary.check(.decoding(JxlDecoderSetInput(decoder, start, bytes.count - consumed)), while: action)
        // libjxl must not keep the pointer past this call: take the input back on every way out.
        defer { consumed = bytes.count - JxlDecoderReleaseInput(decoder) }
        var format = JXLFrameDecoder.rgba8
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_FRAME:
                continue
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                try JXLLibrary.check(.decoding(JxlDecoderImageOutBufferSize(decoder, &format, &size)), while: action)
                guard size == canvas.byteCount else {
                    throw JXLLibrary.failure(.malformed("libjxl wants \(size) bytes for an image of \(canvas.size)"), while: action)
                }
                let set = JxlDecoderSetImageOutBuffer(decoder, &format, canvas.mutableBaseAddress, size)
                try JXLLibrary.check(.decoding(set), while: action)
                hasOutput = true
            case JXL_DEC_FULL_IMAGE:
                isComplete = true
                return
            case JXL_DEC_NEED_MORE_INPUT:
                return
            default:
                throw JXLLibrary.failure(.decoding(status), while: action)
            }
        }
    }

    /// The image as far as libjxl has decoded it, resampled to ``target``; nil before libjxl can show anything.
    ///
    /// The canvas cannot be published while libjxl still writes into it, hence the copy.
    func snapshot(hasAlpha: Bool) throws(WebImageError) -> PixelBuffer? {
        guard hasOutput else { return nil }
        if !isComplete {
            // Not an error for libjxl when it has nothing to show yet; the canvas is left as it was.
            guard JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS else { return nil }
        }
        if target == canvas.size {
            let copy = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
            copy.mutableBaseAddress.copyMemory(from: canvas.baseAddress, byteCount: canvas.byteCount)
            return copy
        }
        return try canvas.resampled(to: target, hasAlpha: hasAlpha)
    }
}
