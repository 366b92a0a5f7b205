internal import CJXL
import WebImageCore

/// What a JPEG XL file's headers say, read with libjxl's `JXL_DEC_BASIC_INFO` event and, for an animation,
/// its `JXL_DEC_FRAME` events: libjxl walks the frame headers and skips their pixels (no image is decoded).
///
/// Frames are counted as libjxl shows them with coalescing (its default): one per displayed frame, each the
/// whole canvas; frames that only build up the next one are not counted.
struct JXLHeader {
    /// The stored size, before orientation.
    var size: PixelSize
    /// The orientation the codestream declares (EXIF values 1 to 8).
    var orientation: ImageOrientation
    /// Whether the image has an alpha channel.
    var hasAlpha: Bool
    /// Whether the alpha is stored premultiplied (libjxl is asked to undo it).
    var isAlphaPremultiplied: Bool
    /// Bits a colour sample in the file (8, 10, 12, 16, or 32 for floats); the output is always 8.
    var bitsPerSample: Int
    /// Whether the codestream declares an animation.
    var isAnimated: Bool
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int
    /// The displayed frames: 1 for a still image, or before the frames were walked; for an animation whose
    /// walk stopped at a limit, one more than the limit.
    var frameCount = 1
    /// The displayed frames' durations in seconds, as many as were asked for.
    var durations: [Double] = []
    /// The length of an animation's tick in seconds (its ticks-per-second denominator over its numerator).
    var secondsPerTick = 0.0

    /// How far to walk an animation's frames.
    struct FrameWalk {
        /// Stop counting after this many frames (a decode's frame limit, plus one to tell it is over).
        var stopAfter: Int?
        /// Keep the durations of at most this many frames.
        var keepDurations: Int
        /// Reads the basic information only: the frame count stays 1.
        static let none = FrameWalk(stopAfter: 0, keepDurations: 0)
        /// Counts every frame and keeps the durations of the first `count`.
        static func all(keepingDurations count: Int) -> FrameWalk { FrameWalk(stopAfter: nil, keepDurations: count) }
    }

    /// Reads the headers of a complete file.
    ///
    /// - Throws: `badImageData` when the headers or frame headers are malformed or cut short.
    init(bytes: UnsafeRawBufferPointer, walk: FrameWalk) throws(WebImageError) {
        guard let header = try Self.read(bytes, walk: walk, isComplete: true) else {
            throw .badImageData(.jpegxl, "the data is truncated before the image headers end")
        }
        self = header
    }

    /// Reads the basic information from the first bytes of a file, or returns nil when more bytes are needed.
    ///
    /// - Throws: `badImageData` when the headers are malformed.
    init?(prefix bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard let header = try Self.read(bytes, walk: .none, isComplete: false) else { return nil }
        self = header
    }

    /// Runs libjxl over `bytes` (the whole file when `isComplete`) up to the basic information, then through
    /// the frame headers `walk` asks for; nil when the bytes of an incomplete file run out first.
    private static func read(_ bytes: UnsafeRawBufferPointer, walk: FrameWalk, isComplete: Bool) throws(WebImageError) -> JXLHeader? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        guard let decoder = JxlDecoderCreate(nil) else {
            throw JXLLibrary.failure(.outOfMemory, while: "setting up the decoder")
        }
        defer { JxlDecoderDestroy(decoder) }
        let walksFrames = walk.stopAfter != 0
        let events = JXL_DEC_BASIC_INFO.rawValue | (walksFrames ? JXL_DEC_FRAME.rawValue : 0)
        try JXLLibrary.check(
            .decoding(JxlDecoderSubscribeEvents(decoder, Int32(truncatingIfNeeded: events))),
            while: "setting up the decoder"
        )
        try JXLLibrary.check(
            .decoding(JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count)),
            while: "reading the headers"
        )
        if isComplete { JxlDecoderCloseInput(decoder) }
        // Without this, libjxl reports the size once turned upright; the header gives the stored size.
        try JXLLibrary.check(.decoding(JxlDecoderSetKeepOrientation(decoder, cjxl_true)), while: "setting up the decoder")

        var header: JXLHeader?
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                var info = JxlBasicInfo()
                try JXLLibrary.check(.decoding(JxlDecoderGetBasicInfo(decoder, &info)), while: "reading the headers")
                let read = try JXLHeader(info)
                if !read.isAnimated || !walksFrames { return read }
                header = read
                header?.frameCount = 0
            case JXL_DEC_FRAME where header != nil:
                var frame = JxlFrameHeader()
                try JXLLibrary.check(.decoding(JxlDecoderGetFrameHeader(decoder, &frame)), while: "reading a frame header")
                header!.frameCount += 1
                if header!.durations.count < walk.keepDurations {
                    header!.durations.append(Double(frame.duration) * header!.secondsPerTick)
                }
                if let stop = walk.stopAfter, header!.frameCount >= stop { return header }
            case JXL_DEC_SUCCESS where header != nil:
                guard header!.frameCount > 0 else {
                    throw .badImageData(.jpegxl, "the animation has no frame")
                }
                return header
            case JXL_DEC_NEED_MORE_INPUT where !isComplete:
                return nil
            default:
                let action = header == nil ? "reading the headers" : "reading the header of frame \(header!.frameCount + 1)"
                throw JXLLibrary.failure(.decoding(status), while: action)
            }
        }
    }

    /// The header of a codestream whose basic information is `info`.
    private init(_ info: JxlBasicInfo) throws(WebImageError) {
        guard info.xsize > 0, info.ysize > 0 else {
            throw .badImageData(.jpegxl, "the headers declare an empty image of \(info.xsize) x \(info.ysize)")
        }
        size = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        let exif = Int(info.orientation.rawValue)
        orientation = (1...8).contains(exif) ? ImageOrientation(exifValue: exif) : .up
        hasAlpha = info.alpha_bits > 0
        isAlphaPremultiplied = info.alpha_premultiplied != 0
        bitsPerSample = Int(info.bits_per_sample)
        isAnimated = info.have_animation != 0
        loopCount = isAnimated ? Int(info.animation.num_loops) : 0
        let animation = info.animation
        if isAnimated, animation.tps_numerator > 0 {
            secondsPerTick = Double(animation.tps_denominator) / Double(animation.tps_numerator)
        }
    }

    /// The size of the pixels libjxl outputs: upright, unless the orientation is kept.
    func canvasSize(keepingOrientation keeps: Bool) -> PixelSize {
        keeps ? size : orientation.uprightSize(of: size)
    }
}
