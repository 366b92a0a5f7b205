/// The built-in transformers, each with SDWebImage's exact `transformerKey`, so that cache keys match across both
/// libraries: ``Pipeline``, ``Flip``, ``Crop``, ``Grayscale`` and the others in `ImageTransformers+*.swift`.
///
/// ```swift
/// let pipeline = ImageTransformers.Pipeline([ImageTransformers.Flip(horizontal: true), ImageTransformers.Grayscale()])
/// manager.transformer = pipeline
/// ```
///
/// Every transformer is a value, thread-safe, and works on each frame of an animation (the manager runs it on
/// animations only with `transformAnimatedImage`). A transformer that cannot apply (an empty crop, a size of
/// zero) returns nil, which keeps the image as it was.
public enum ImageTransformers {
    /// The most pixels, over all frames, that a transformer makes when its result is larger than its source:
    /// the decoders' default limit, 100 megapixels (381 MiB). ``Resize`` and ``Rotate`` with `fitSize` return
    /// nil, which keeps the image, rather than make more.
    public static let maxResultPixelCount = ImageDecodeOptions.defaultMaxPixelCount
}

extension ImageTransformers {
    /// Whether a result of `frames` frames of `width` x `height` pixels may be made from a source of `source`
    /// pixels a frame: when it is no larger than the source, or within ``maxResultPixelCount`` over all frames.
    /// In floating point, so that a size can be checked before it is known to fit in `Int`; false for NaN.
    static func allowsResult(width: Double, height: Double, frames: Int, source: PixelSize) -> Bool {
        let pixels = width * height
        return pixels <= Double(source.pixelCount) || pixels * Double(max(1, frames)) <= Double(maxResultPixelCount)
    }

    /// `image` with every frame made by `body`, keeping durations, and the source's format and scale when
    /// `preservingMetadata`; nil when `body` returns nil for any frame.
    ///
    /// - Parameter hasAlpha: Whether the result has transparent pixels; the source's flag when nil.
    static func map(
        _ image: Image, preservingMetadata: Bool, hasAlpha: Bool? = nil, _ body: (PixelBuffer) -> PixelBuffer?
    ) -> Image? {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frames.count)
        for frame in image.frames {
            guard let pixels = body(frame.pixels) else { return nil }
            frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        let alpha = hasAlpha ?? image.hasAlpha
        guard preservingMetadata else {
            return Image(frames: frames, loopCount: image.loopCount, hasAlpha: alpha)
        }
        return Image(frames: frames, loopCount: image.loopCount, scale: image.scale, format: image.format, hasAlpha: alpha)
    }
}
