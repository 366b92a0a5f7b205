import WebImageCore

/// Decodes the frames of a GIF animation, compositing them on an ``AnimationCanvas`` at the logical screen's
/// size and taking a snapshot of the canvas, resampled to the target size, for each frame.
///
/// Frames that leave the canvas unchanged (wholly outside it) share the previous frame's buffer.
enum GIFAnimationDecoder {
    /// Decodes the first `frameCount` frames of `bytes`.
    ///
    /// - Throws: `badImageData` for malformed data; `imageTooLarge` when a buffer cannot be had.
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        structure: GIFStructure,
        frameCount: Int,
        target: PixelSize,
        hasAlpha: Bool
    ) throws(WebImageError) -> [ImageFrame] {
        let canvas = try AnimationCanvas(size: structure.canvasSize)
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        try GIFFrameRenderer.withRenderer(canvasWidth: structure.canvasSize.width) { renderer throws(WebImageError) in
            try GIFRecordReader.read(bytes) { reader throws(WebImageError) in
                for index in 0..<frameCount {
                    guard let frame = try reader.nextFrame() else {
                        throw .badImageData(.gif, "frame \(index) is missing")
                    }
                    try renderer.draw(frame, from: &reader, onto: canvas)
                    let pixels = try canvas.snapshot(size: target, hasAlpha: hasAlpha)
                    frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
                    canvas.dispose(frame.rect, frame.control.disposal)
                }
            }
        }
        return frames
    }
}
