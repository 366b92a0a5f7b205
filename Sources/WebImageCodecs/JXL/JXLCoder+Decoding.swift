internal import CJXL
import WebImageCore

extension JXLCoder {
    /// How a decode runs: the headers, the size libjxl outputs, the size of the frames made from it, and how
    /// many frames.
    struct DecodePlan {
        var header: JXLHeader
        /// The size libjxl outputs (the full size, upright unless the orientation is kept).
        var canvas: PixelSize
        /// The size of each frame of the result: the canvas, or smaller for a thumbnail or scale-down.
        var target: PixelSize
        /// The frames to decode.
        var frames: Int
        /// Whether libjxl keeps the stored orientation, which the image then reports.
        var keepsOrientation: Bool

        /// The orientation the decoded image reports.
        var reportedOrientation: ImageOrientation { keepsOrientation ? header.orientation : .up }
    }

    /// Reads the headers of `bytes` and checks them against the limits.
    ///
    /// - Parameter holdsAllFrames: Whether every frame is kept (a decode) or one at a time (a provider), for the
    ///   pixel and memory limits.
    /// - Throws: `badImageData` for malformed headers; `imageTooLarge` when there are more frames than
    ///   ``ImageDecodeOptions/maxFrameCount``, or the full size, the frames or the memory are over the limits.
    func plan(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions, holdsAllFrames: Bool) throws(WebImageError) -> DecodePlan {
        let walk: JXLHeader.FrameWalk
        if options.firstFrameOnly {
            walk = .none
        } else if options.maxFrameCount > 0 {
            // One frame over the limit is enough to refuse the file.
            walk = JXLHeader.FrameWalk(stopAfter: options.maxFrameCount + 1, keepDurations: options.maxFrameCount)
        } else {
            walk = .all(keepingDurations: .max)
        }
        let header = try JXLHeader(bytes: bytes, walk: walk)
        return try plan(header, options: options, holdsAllFrames: holdsAllFrames)
    }

    /// Checks `header` against the limits; see ``plan(_:options:holdsAllFrames:)``.
    func plan(_ header: JXLHeader, options: ImageDecodeOptions, holdsAllFrames: Bool) throws(WebImageError) -> DecodePlan {
        let keeps = options.keepsOriginalOrientation
        let upright = header.orientation.uprightSize(of: header.size)
        let frames = header.isAnimated && !options.firstFrameOnly ? header.frameCount : 1
        let uprightTarget = try holdsAllFrames
            ? options.targetSize(for: upright, frameCount: frames, format: .jpegxl)
            : options.frameSize(forCanvas: upright, frameCount: frames, format: .jpegxl)
        // libjxl 0.7 always decodes the full size.
        try options.checkPixelLimit(upright, format: .jpegxl)
        let swaps = keeps && header.orientation.swapsWidthAndHeight
        let plan = DecodePlan(
            header: header,
            canvas: header.canvasSize(keepingOrientation: keeps),
            target: swaps ? uprightTarget.transposed : uprightTarget,
            frames: frames,
            keepsOrientation: keeps
        )
        let memory = JXLMemoryEstimate.decode(
            header,
            canvas: plan.canvas,
            target: plan.target,
            keptFrames: holdsAllFrames ? frames : 1,
            extraFrames: holdsAllFrames ? 0 : 1
        )
        try options.checkDecodeMemory(memory, format: .jpegxl)
        return plan
    }

    /// Decodes the frames of `bytes` that `options` ask for, after checking the limits.
    func decodeFrames(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let plan = try plan(bytes, options: options, holdsAllFrames: true)
        let frames = try JXLFrameDecoder.withDecoder(
            borrowing: bytes,
            header: plan.header,
            keepingOrientation: plan.keepsOrientation
        ) { decoder throws(WebImageError) in
            // A smaller target is resampled from one full-size scratch canvas; at full size, libjxl writes
            // straight into each frame's buffer.
            let scratch = try plan.target == plan.canvas
                ? nil
                : PixelBuffer(uninitializedWidth: plan.canvas.width, height: plan.canvas.height)
            var frames: [ImageFrame] = []
            frames.reserveCapacity(plan.frames)
            for _ in 0..<plan.frames {
                let (pixels, duration) = try Self.decodeFrame(decoder, target: plan.target, scratch: scratch)
                frames.append(ImageFrame(pixels: pixels, duration: ImageFrame.normalizedDuration(duration)))
            }
            return frames
        }
        return Image(
            frames: frames,
            loopCount: plan.header.loopCount,
            scale: options.effectiveScale,
            format: .jpegxl,
            hasAlpha: plan.header.hasAlpha,
            orientation: plan.reportedOrientation
        )
    }

    /// Decodes the next frame of `decoder` into a new buffer of `target`: straight, or through `scratch` (of
    /// the decoder's canvas size) and the resampler. Returns the frame and its duration in seconds.
    static func decodeFrame(
        _ decoder: JXLFrameDecoder,
        target: PixelSize,
        scratch: PixelBuffer?
    ) throws(WebImageError) -> (PixelBuffer, Double) {
        let frame = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
        guard let scratch else {
            return (frame, try decoder.decodeNextFrame(into: frame))
        }
        let duration = try decoder.decodeNextFrame(into: scratch)
        PixelResampler.resample(
            scratch.baseAddress,
            size: scratch.size,
            bytesPerRow: scratch.bytesPerRow,
            hasAlpha: decoder.header.hasAlpha,
            into: frame.mutableBaseAddress,
            size: target,
            bytesPerRow: frame.bytesPerRow
        )
        return (frame, duration)
    }
}
