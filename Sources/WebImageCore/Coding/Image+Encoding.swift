extension Image {
    /// The frames an encoder writes for `options`: only the first when ``ImageEncodeOptions/firstFrameOnly`` is
    /// set (or the format cannot animate), every frame of an animation decoded on demand otherwise, each scaled down to fit ``ImageEncodeOptions/maxPixelSize``.
    ///
    /// Frames that shared a buffer still share one after scaling.
    package func framesForEncoding(_ options: ImageEncodeOptions, animated: Bool) throws(WebImageError) -> [ImageFrame] {
        let source = options.firstFrameOnly || !animated ? [frames[0]] : try withAllFrames().frames
        guard let limit = options.maxPixelSize, !limit.isEmpty else { return source }
        let target = pixelSize.scaled(toFit: limit, preserveAspectRatio: true)
        guard target != pixelSize else { return source }
        var scaled: [ObjectIdentifier: PixelBuffer] = [:]
        var result: [ImageFrame] = []
        for frame in source {
            let key = ObjectIdentifier(frame.pixels)
            if scaled[key] == nil {
                scaled[key] = try frame.pixels.resampled(to: target, hasAlpha: hasAlpha)
            }
            result.append(ImageFrame(pixels: scaled[key]!, duration: frame.duration))
        }
        return result
    }
}
