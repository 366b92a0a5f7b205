#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CJXL
import WebImageCore

/// libjxl's decoder (`JxlDecoder`) handing out the displayed frames of a file one at a time, each the whole
/// canvas as RGBA8 (coalesced by libjxl, oriented upright unless the orientation is kept).
///
/// libjxl reads the input in place until it is released, so the bytes must outlive the decoder: an animation
/// provider's decoder owns a copy of them, freed after the decoder is destroyed; a one-shot decode borrows them
/// for the length of ``withDecoder(borrowing:header:keepingOrientation:_:)``.
///
/// Not thread-safe: one decode, or one provider behind its lock, uses it.
final class JXLFrameDecoder {
    /// The file's headers.
    let header: JXLHeader
    /// The size of the frames libjxl outputs.
    let canvasSize: PixelSize
    /// The index of the frame ``decodeNextFrame(into:)`` decodes next.
    private(set) var nextIndex = 0

    private let decoder: OpaquePointer
    private let input: UnsafeRawBufferPointer
    private let ownedInput: UnsafeMutableRawBufferPointer?
    private let keepsOrientation: Bool

    /// Creates a decoder over a copy of `data`, whose headers `header` describes.
    ///
    /// - Throws: `imageTooLarge` when libjxl's decoder cannot be allocated.
    convenience init(copying data: Data, header: JXLHeader, keepingOrientation keeps: Bool) throws(WebImageError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        let count = data.copyBytes(to: copy)
        try self.init(input: UnsafeRawBufferPointer(rebasing: copy[0..<count]), owned: copy, header: header, keeps: keeps)
    }

    /// Calls `body` with a decoder reading `bytes` in place; the decoder must not escape `body`.
    static func withDecoder<R>(
        borrowing bytes: UnsafeRawBufferPointer,
        header: JXLHeader,
        keepingOrientation keeps: Bool,
        _ body: (JXLFrameDecoder) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        let decoder = try JXLFrameDecoder(input: bytes, owned: nil, header: header, keeps: keeps)
        return try body(decoder)
    }

    /// Takes ownership of `owned` (freed by deinit, or here when the decoder cannot be made).
    private init(
        input: UnsafeRawBufferPointer,
        owned: UnsafeMutableRawBufferPointer?,
        header: JXLHeader,
        keeps: Bool
    ) throws(WebImageError) {
        let action = "setting up the decoder"
        guard let decoder = JxlDecoderCreate(nil) else {
            owned?.deallocate()
            throw JXLLibrary.failure(.outOfMemory, while: action)
        }
        self.decoder = decoder
        self.input = input
        self.header = header
        self.canvasSize = header.canvasSize(keepingOrientation: keeps)
        self.keepsOrientation = keeps
        // Every stored property is set from here on: a failure below runs deinit, which frees both.
        self.ownedInput = owned
        try configure()
    }

    /// Subscribes to the events, sets the output's orientation and alpha, and gives libjxl the whole input.
    private func configure() throws(WebImageError) {
        let action = "setting up the decoder"
        let events = JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        try JXLLibrary.check(.decoding(JxlDecoderSubscribeEvents(decoder, Int32(truncatingIfNeeded: events))), while: action)
        let keep = keepsOrientation ? cjxl_true : cjxl_false
        try JXLLibrary.check(.decoding(JxlDecoderSetKeepOrientation(decoder, keep)), while: action)
        if header.isAlphaPremultiplied {
            try JXLLibrary.check(.decoding(JxlDecoderSetUnpremultiplyAlpha(decoder, cjxl_true)), while: action)
        }
        try setInput()
    }

    deinit {
        JxlDecoderDestroy(decoder)
        ownedInput?.deallocate()
    }

    private func setInput() throws(WebImageError) {
        guard let base = input.baseAddress, !input.isEmpty else {
            throw .badImageData(.jpegxl, "the data is empty")
        }
        let status = JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), input.count)
        try JXLLibrary.check(.decoding(status), while: "giving the decoder its input")
        JxlDecoderCloseInput(decoder)
    }

    /// The pixel format of every output: RGBA, 8 bits a sample, rows packed.
    static var rgba8: JxlPixelFormat {
        JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    }

    /// Decodes the next displayed frame into `pixels`, which must have ``canvasSize``; returns its duration in
    /// seconds.
    ///
    /// - Throws: `badImageData` when the frame is malformed or truncated, or there is no frame left.
    func decodeNextFrame(into pixels: PixelBuffer) throws(WebImageError) -> Double {
        precondition(pixels.size == canvasSize && pixels.bytesPerRow == canvasSize.width * 4)
        let action = "decoding frame \(nextIndex + 1)"
        var format = Self.rgba8
        var duration = 0.0
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_FRAME:
                var frame = JxlFrameHeader()
                try JXLLibrary.check(.decoding(JxlDecoderGetFrameHeader(decoder, &frame)), while: action)
                duration = Double(frame.duration) * header.secondsPerTick
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                try JXLLibrary.check(.decoding(JxlDecoderImageOutBufferSize(decoder, &format, &size)), while: action)
                guard size == pixels.byteCount else {
                    throw JXLLibrary.failure(
                        .malformed("libjxl wants \(size) bytes for a frame of \(canvasSize)"),
                        while: action
                    )
                }
                let set = JxlDecoderSetImageOutBuffer(decoder, &format, pixels.mutableBaseAddress, size)
                try JXLLibrary.check(.decoding(set), while: action)
            case JXL_DEC_FULL_IMAGE:
                nextIndex += 1
                return duration
            default:
                throw JXLLibrary.failure(.decoding(status), while: action)
            }
        }
    }

    /// Makes ``decodeNextFrame(into:)`` decode frame `index` next: skips the frames before it, going back to the
    /// start of the file first when `index` is behind.
    ///
    /// Going back resets the decoder and sets it up again: after `JxlDecoderRewind`, libjxl 0.7 reports the
    /// end of the file at once when the frames had been decoded with coalescing.
    func seek(to index: Int) throws(WebImageError) {
        guard index != nextIndex else { return }
        if index < nextIndex {
            JxlDecoderReset(decoder)
            nextIndex = 0
            try configure()
        }
        if index > nextIndex {
            JxlDecoderSkipFrames(decoder, index - nextIndex)
            nextIndex = index
        }
    }
}
