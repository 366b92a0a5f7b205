extension ImageDecodeOptions {
    /// The size each decoded frame must have, for a source whose upright size is `uprightSize`.
    ///
    /// Applies the thumbnail size (fit or stretch, never larger than the source), then the scale-down limit
    /// (the smaller of the two wins), then checks the pixel limit over all frames.
    ///
    /// - Parameters:
    ///   - uprightSize: The source size once orientation is applied.
    ///   - frameCount: Frames the decode will produce (1 when ``firstFrameOnly`` is set or unknown yet).
    ///   - format: Named in the error.
    /// - Throws: `imageTooLarge` when the result is over ``maxPixelCount``.
    public func targetSize(
        for uprightSize: PixelSize,
        frameCount: Int = 1,
        format: ImageFormat
    ) throws(WebImageError) -> PixelSize {
        let frames = firstFrameOnly ? 1 : max(1, frameCount)
        var target = uprightSize
        if let thumbnail = thumbnailPixelSize, !thumbnail.isEmpty {
            target = uprightSize.scaled(toFit: thumbnail, preserveAspectRatio: preserveAspectRatio)
        }
        if let requested = scaleDownLimitBytes {
            let limit = requested <= 0 ? ImageDecodeOptions.defaultScaleDownLimitBytes : max(requested, 4)
            let (bytes, overflow) = uprightSize.pixelCount.multipliedReportingOverflow(by: 4 * frames)
            if overflow || bytes > limit {
                let limited = uprightSize.scaled(toLimitBytes: limit, bytesPerPixel: 4, frameCount: frames)
                if limited.pixelCount < target.pixelCount { target = limited }
            }
        }
        try checkPixelLimit(target, frames: frames, format: format)
        return target
    }

    /// Throws `imageTooLarge` when `frames` frames of `size` are over ``maxPixelCount``.
    public func checkPixelLimit(_ size: PixelSize, frames: Int = 1, format: ImageFormat) throws(WebImageError) {
        guard maxPixelCount > 0 else { return }
        let (total, overflow) = size.pixelCount.multipliedReportingOverflow(by: max(1, frames))
        if overflow || total > maxPixelCount {
            throw .imageTooLarge(format, size: size, frames: frames, limit: maxPixelCount)
        }
    }
}
