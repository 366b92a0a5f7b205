#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWebP
import WebImageCore

extension WebPCoder {
    /// Decodes an animation with libwebp's animation decoder, which does the blending and disposal.
    ///
    /// The budget is checked from the container before any frame is decoded: the number of frames, the canvas
    /// libwebp composites on, and the frames produced (target size x frames) must all be within the limits, and
    /// libwebp's two canvases, its decoder for the largest frame, the file's copy and the frames within the
    /// decode memory budget.
    func decodeAnimation(
        _ data: Data,
        bytes: UnsafeRawBufferPointer,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> Image {
        var plan = AnimationPlan(frames: 1, frameSize: .zero)
        let header = try WebPAnimationHeader(bytes: bytes) { canvas, frameCount throws(WebImageError) in
            plan = try animationPlan(canvas: canvas, frameCount: frameCount, options: options, holdsAllFrames: true)
            return plan.frames
        }
        try options.checkDecodeMemory(
            WebPMemoryEstimate.animation(header, target: plan.frameSize, keptFrames: plan.frames, fileByteCount: data.count),
            format: .webp
        )
        let decoder = try WebPAnimationDecoder(copying: data, header: header, targetSize: plan.frameSize)

        var frames: [ImageFrame] = []
        frames.reserveCapacity(plan.frames)
        var previous: PixelBuffer?
        for _ in 0..<plan.frames {
            let frame = try decoder.advance { canvas, milliseconds throws(WebImageError) in
                ImageFrame(
                    pixels: try decoder.makeFrame(from: canvas, reusing: previous),
                    duration: ImageFrame.normalizedDuration(Double(milliseconds) / 1000)
                )
            }
            previous = frame.pixels
            frames.append(frame)
        }
        return Image(
            frames: frames,
            loopCount: header.loopCount,
            scale: options.effectiveScale,
            format: .webp,
            hasAlpha: header.hasAlpha
        )
    }

    /// A frame source that decodes an animation's frames on demand, in order, keeping one libwebp canvas.
    ///
    /// The frames have the size a full decode with `options` would give them (thumbnail, scale-down limit over
    /// all frames). The pixel limit applies to libwebp's canvas and to one frame, since the provider holds one
    /// frame at a time; the frame limit (``ImageDecodeOptions/maxFrameCount``) applies as to a full decode. The
    /// decode memory budget applies to what the provider holds: libwebp's two canvases, its decoder for the
    /// largest frame, the file's copy and two frames.
    ///
    /// A still WebP gives a provider of one frame, decoded when the provider is made exactly as
    /// ``decode(_:options:)`` decodes it, with its limits: the frame source and the decode agree on every file,
    /// damaged ones included.
    ///
    /// - Throws: `badImageData` for data that is not WebP or is malformed; `imageTooLarge` over the limits.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        try checkSignature(data)
        let features = try data.withBytes { bytes throws(WebImageError) in try WebPFeatures(bytes: bytes) }
        guard features.isAnimated else {
            // libwebp's demuxer reads a still file as one frame too, but hands its decoder the image's chunk
            // alone, where the one-shot decoder reads on to the end of the data: on a damaged file they disagree.
            let image = try data.withBytes { bytes throws(WebImageError) in
                try decodeStill(bytes, features: features, options: options)
            }
            return WebPAnimatedImageProvider(data: data, still: image)
        }
        var plan = AnimationPlan(frames: 1, frameSize: .zero)
        let header = try data.withBytes { bytes throws(WebImageError) in
            try WebPAnimationHeader(bytes: bytes) { canvas, frameCount throws(WebImageError) in
                plan = try animationPlan(canvas: canvas, frameCount: frameCount, options: options, holdsAllFrames: false)
                return plan.frames
            }
        }
        // The provider keeps the frame it handed out last while it makes the next.
        try options.checkDecodeMemory(
            WebPMemoryEstimate.animation(header, target: plan.frameSize, keptFrames: 2, fileByteCount: data.count),
            format: .webp
        )
        let decoder = try WebPAnimationDecoder(copying: data, header: header, targetSize: plan.frameSize)
        return WebPAnimatedImageProvider(data: data, decoder: decoder, frameCount: plan.frames)
    }

    /// How many frames to decode, and at what size.
    struct AnimationPlan {
        var frames: Int
        var frameSize: PixelSize
    }

    /// Checks an animation against the limits and sizes its frames.
    ///
    /// - Parameter holdsAllFrames: Whether every frame is kept (a decode) or one at a time (a provider), for the
    ///   pixel limit.
    /// - Throws: `imageTooLarge` when there are more frames than ``ImageDecodeOptions/maxFrameCount``, or the
    ///   canvas, the frames or the work are over the limits.
    func animationPlan(
        canvas: PixelSize,
        frameCount: Int,
        options: ImageDecodeOptions,
        holdsAllFrames: Bool
    ) throws(WebImageError) -> AnimationPlan {
        let frames = options.firstFrameOnly ? 1 : frameCount
        guard holdsAllFrames else {
            return AnimationPlan(frames: frames, frameSize: try options.frameSize(forCanvas: canvas, frameCount: frameCount, format: .webp))
        }
        let size = try options.targetSize(for: canvas, frameCount: frameCount, format: .webp)
        // libwebp composites every frame on a canvas of the full size.
        try options.checkPixelLimit(canvas, format: .webp)
        return AnimationPlan(frames: frames, frameSize: size)
    }
}
