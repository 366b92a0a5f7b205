internal import CWebP
import WebImageCore

/// What an animated WebP file's container says, read with libwebp's demuxer (no frame is decoded).
///
/// The demuxer finds a frame by walking its list of frames from the first, so reading the first `n` frames costs
/// `n * n / 2` steps: the caller says how many frames to read once it knows how many there are, and refuses
/// files with too many.
struct WebPAnimationHeader {
    /// The canvas every frame is composited on.
    var canvasSize: PixelSize
    /// The number of frames in the file, at least 1.
    var frameCount: Int
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int
    /// Whether the canvas may show transparent pixels over the frames read: the file declares alpha, or one of
    /// them leaves part of the canvas uncovered (the canvas starts transparent).
    var hasAlpha: Bool
    /// The durations of the frames read, as stored, in milliseconds.
    var durations: [Int]
    /// What libwebp holds to decode the most demanding of the frames read (see ``WebPMemoryEstimate``).
    var largestFrameDecoder = DecodeMemoryEstimate()

    /// Parses the container of a complete file.
    ///
    /// - Parameter framesToRead: Given the canvas size and the number of frames in the file, returns how many of
    ///   the first frames to read (at least 1), or throws to refuse the file before any frame is read.
    /// - Throws: `badImageData` when the container is malformed, truncated, or holds no frame; what
    ///   `framesToRead` throws.
    init(
        bytes: UnsafeRawBufferPointer,
        framesToRead: (_ canvasSize: PixelSize, _ frameCount: Int) throws(WebImageError) -> Int
    ) throws(WebImageError) {
        let action = "reading the animation"
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw WebPLibrary.failure(.malformed("the data is empty"), while: action)
        }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else {
            throw WebPLibrary.failure(.malformed("the container is malformed or truncated"), while: action)
        }
        defer { WebPDemuxDelete(demuxer) }

        let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        let flags = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS)
        canvasSize = PixelSize(width: width, height: height)
        frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        guard !canvasSize.isEmpty else {
            throw WebPLibrary.failure(.malformed("the canvas is empty"), while: action)
        }

        guard frameCount > 0 else {
            throw WebPLibrary.failure(.malformed("the animation has no frames"), while: action)
        }
        let wanted = max(1, min(frameCount, try framesToRead(canvasSize, frameCount)))

        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
            throw WebPLibrary.failure(.malformed("the first frame is missing"), while: action)
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        var durations: [Int] = []
        durations.reserveCapacity(wanted)
        var coversCanvas = true
        repeat {
            durations.append(Int(iterator.duration))
            if iterator.x_offset != 0 || iterator.y_offset != 0
                || Int(iterator.width) != width || Int(iterator.height) != height {
                coversCanvas = false
            }
            let decoder = WebPAnimationHeader.decoderMemory(of: iterator)
            if decoder.totalBytes > largestFrameDecoder.totalBytes { largestFrameDecoder = decoder }
        } while durations.count < wanted && WebPDemuxNextFrame(&iterator) != 0
        guard durations.count == wanted else {
            throw WebPLibrary.failure(.malformed("frame \(durations.count + 1) is missing"), while: action)
        }
        self.durations = durations
        hasAlpha = flags & cwebp_alpha_flag != 0 || !coversCanvas
    }

    /// What libwebp holds to decode the frame `iterator` is on, from its bitstream's header (a frame whose header
    /// cannot be read counts as lossless, the most demanding).
    private static func decoderMemory(of iterator: WebPIterator) -> DecodeMemoryEstimate {
        let size = PixelSize(width: Int(iterator.width), height: Int(iterator.height))
        var features = WebPBitstreamFeatures()
        let status: VP8StatusCode = iterator.fragment.bytes.map { bytes in
            WebPGetFeatures(bytes, iterator.fragment.size, &features)
        } ?? VP8_STATUS_NOT_ENOUGH_DATA
        let isLossless = status != VP8_STATUS_OK || features.format != 1
        return WebPMemoryEstimate.decoder(size: size, isLossless: isLossless, hasAlpha: iterator.has_alpha != 0)
    }
}
