#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CWebP
import WebImageCore

/// libwebp's animation decoder (`WebPAnimDecoder`) over a private copy of an animated file.
///
/// libwebp composites every frame on a canvas it owns, with the file's blending and disposal; this type hands
/// out that canvas one frame at a time and turns it into a ``PixelBuffer`` of the target size: one copy, or one
/// resample when the target is smaller.
///
/// The demuxer inside the decoder keeps pointers into the encoded bytes for its whole life, so the decoder owns
/// a copy of them, freed after the decoder is deleted.
///
/// Not thread-safe: one decode, or one provider behind its lock, uses it.
final class WebPAnimationDecoder {
    /// The container's description.
    let header: WebPAnimationHeader
    /// The size of the frames this decoder makes.
    let targetSize: PixelSize
    /// The index of the frame the next ``advance(_:)`` composes.
    private(set) var nextIndex = 0

    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer
    private var lastTimestamp: Int32 = 0

    /// Creates a decoder over a copy of `data`, whose container `header` describes.
    ///
    /// The caller checks the pixel limits first: libwebp allocates its canvas (the full canvas size) here.
    /// - Throws: `imageTooLarge` when libwebp cannot allocate its canvas.
    init(copying data: Data, header: WebPAnimationHeader, targetSize: PixelSize) throws(WebImageError) {
        let action = "setting up the animation decoder"
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw WebPLibrary.failure(.decoding(VP8_STATUS_INVALID_PARAM), while: action)
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0

        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        let count = data.copyBytes(to: bytes)
        var webpData = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: count)
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            bytes.deallocate()
            throw WebPLibrary.failure(.outOfMemory, while: action)
        }
        self.bytes = bytes
        self.decoder = decoder
        self.header = header
        self.targetSize = targetSize
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// Composites the next frame and calls `body` with libwebp's canvas and the frame's duration.
    ///
    /// - Parameter body: Receives the canvas (`canvasSize.width * 4` bytes a row, valid only inside `body`, never
    ///   to be written) and the frame's duration in milliseconds (the difference of libwebp's timestamps).
    /// - Throws: `badImageData` when the frame cannot be decoded or there is no frame left; what `body` throws.
    func advance<R>(_ body: (UnsafeRawPointer, Int) throws(WebImageError) -> R) throws(WebImageError) -> R {
        let action = "decoding frame \(nextIndex + 1) of the animation"
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else {
            throw WebPLibrary.failure(.malformed("there is no frame left"), while: action)
        }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            throw WebPLibrary.failure(.malformed("the frame is malformed or truncated"), while: action)
        }
        let duration = Int(timestamp) - Int(lastTimestamp)
        lastTimestamp = timestamp
        nextIndex += 1
        return try body(UnsafeRawPointer(canvas), duration)
    }

    /// Goes back to before the first frame.
    func reset() {
        WebPAnimDecoderReset(decoder)
        nextIndex = 0
        lastTimestamp = 0
    }

    /// A new buffer of ``targetSize`` with the canvas's pixels: copied, or resampled when the target is smaller.
    ///
    /// - Parameters:
    ///   - canvas: The canvas ``advance(_:)`` handed out.
    ///   - previous: The previous frame's buffer; returned instead of a new one when the canvas did not change.
    func makeFrame(from canvas: UnsafeRawPointer, reusing previous: PixelBuffer?) throws(WebImageError) -> PixelBuffer {
        let canvasSize = header.canvasSize
        let canvasBytesPerRow = canvasSize.width * 4
        if targetSize == canvasSize {
            let byteCount = canvasBytesPerRow * canvasSize.height
            if let previous, previous.size == canvasSize, previous.bytesPerRow == canvasBytesPerRow,
               memcmp(previous.baseAddress, canvas, byteCount) == 0 {
                return previous
            }
            let frame = try PixelBuffer(uninitializedWidth: canvasSize.width, height: canvasSize.height)
            frame.mutableBaseAddress.copyMemory(from: canvas, byteCount: byteCount)
            return frame
        }
        let frame = try PixelBuffer(uninitializedWidth: targetSize.width, height: targetSize.height)
        PixelResampler.resample(
            canvas,
            size: canvasSize,
            bytesPerRow: canvasBytesPerRow,
            hasAlpha: header.hasAlpha,
            into: frame.mutableBaseAddress,
            size: targetSize,
            bytesPerRow: frame.bytesPerRow
        )
        return frame
    }
}
