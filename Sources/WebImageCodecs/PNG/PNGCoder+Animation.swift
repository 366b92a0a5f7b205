#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PNGCoder {
    /// A frame source over an APNG (or a still PNG, as one frame) that decodes frames on demand.
    ///
    /// Frames come out at the size ``decode(_:options:)`` gives them (thumbnail and scale-down limit applied
    /// as if every frame were decoded), with the limits of ``ImageDecodeOptions/frameSize(forCanvas:frameCount:format:)``:
    /// the provider holds one frame at a time.
    ///
    /// - Parameters:
    ///   - data: A whole PNG or APNG file.
    ///   - options: Size and limits; ``ImageDecodeOptions/firstFrameOnly`` makes a one-frame provider.
    /// - Returns: A thread-safe provider; asking for frames in order is cheapest, going back replays from
    ///   frame 0.
    /// - Throws: `badImageData` when the file or its animation structure is damaged, `imageTooLarge` when the
    ///   canvas or a frame is over the pixel limit, or what the provider holds (the canvas, its copy for frames
    ///   disposed to the previous state, two frames) is over the decode memory budget.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        let animation: APNGAnimation? = try data.withBytes { bytes throws(WebImageError) in
            let header = try PNGHeader(parsing: bytes)
            return try APNGAnimation(parsing: bytes, header: header)
        }
        guard let animation, !(options.firstFrameOnly && animation.defaultImageIsFirstFrame) else {
            // A still image, or only the default image wanted: one frame, decoded as a still.
            let image = try decode(data, options: options)
            return APNGImageProvider(data: data, still: image)
        }
        let frameCount = options.firstFrameOnly ? 1 : animation.frames.count
        let target = try options.frameSize(forCanvas: animation.canvasSize, frameCount: frameCount, format: .png)
        // The provider keeps the frame it handed out last while it makes the next.
        try options.checkDecodeMemory(PNGMemoryEstimate.animation(animation, target: target, keptFrames: 2), format: .png)
        return APNGImageProvider(
            data: data,
            compositor: try APNGCompositor(animation: animation, targetSize: target),
            frameCount: frameCount
        )
    }

    /// Decodes an APNG: every frame, or the first with ``ImageDecodeOptions/firstFrameOnly``.
    func decodeAnimation(
        _ animation: APNGAnimation,
        bytes: UnsafeRawBufferPointer,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> Image {
        if options.firstFrameOnly, animation.defaultImageIsFirstFrame {
            // The first frame is the default image, alone on the canvas: decode it as a still, which also
            // allows a reduced decode of a source over the pixel limit.
            return try decodeStill(bytes, header: animation.header, options: options)
        }
        let frameCount = options.firstFrameOnly ? 1 : animation.frames.count
        // The pixel budget covers every frame of the result, and the full-size canvas must fit too.
        let target = try options.targetSize(for: animation.canvasSize, frameCount: frameCount, format: .png)
        try options.checkPixelLimit(animation.canvasSize, format: .png)
        try options.checkDecodeMemory(
            PNGMemoryEstimate.animation(animation, target: target, keptFrames: frameCount),
            format: .png
        )

        let compositor = try APNGCompositor(animation: animation, targetSize: target)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        // Opaque colour types can still leave transparent canvas where frames do not reach; look at the pixels
        // only when the structure says that can happen.
        var hasAlpha = animation.hasAlphaInFile
        for index in 0..<frameCount {
            let pixels = try compositor.renderNext(bytes: bytes)
            if !hasAlpha, animation.mayBeTransparent, !pixels.isOpaque {
                hasAlpha = true
            }
            frames.append(ImageFrame(pixels: pixels, duration: animation.frames[index].duration))
        }
        return Image(
            frames: frames,
            loopCount: animation.loopCount,
            scale: options.effectiveScale,
            format: .png,
            hasAlpha: hasAlpha
        )
    }
}
