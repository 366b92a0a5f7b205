extension ImageDecodeOptions {
    /// The size each decoded frame must have, for a source whose upright size is `uprightSize`, when the decode
    /// keeps every frame it produces.
    ///
    /// Applies the thumbnail size (fit or stretch, never larger than the source), then the scale-down limit
    /// (the smaller of the two wins), then checks the limits: frames against ``maxFrameCount``, the output over
    /// all frames against ``maxPixelCount``, and the source over all frames against ``reducedSourceFactor``
    /// times ``maxPixelCount``.
    ///
    /// - Parameters:
    ///   - uprightSize: The source size once orientation is applied; for an animation, its canvas.
    ///   - frameCount: Frames in the source (the decode makes one when ``firstFrameOnly`` is set).
    ///   - format: Named in the error.
    /// - Throws: `imageTooLarge` when a limit is exceeded.
    public func targetSize(
        for uprightSize: PixelSize,
        frameCount: Int = 1,
        format: ImageFormat
    ) throws(WebImageError) -> PixelSize {
        let frames = firstFrameOnly ? 1 : max(1, frameCount)
        try checkSource(uprightSize, frames: frames, format: format)
        let target = reducedSize(for: uprightSize, frames: frames)
        try checkPixelLimit(target, frames: frames, format: format)
        return target
    }

    /// The size of each frame a frame source hands out, one at a time, for an animation on `canvas`.
    ///
    /// The thumbnail size and the scale-down limit apply as in ``targetSize(for:frameCount:format:)``; the
    /// pixel limit applies to the canvas and to one frame (the source holds no more), the frame and work limits
    /// to the whole animation (going back replays it from the first frame).
    public func frameSize(forCanvas canvas: PixelSize, frameCount: Int, format: ImageFormat) throws(WebImageError) -> PixelSize {
        let frames = firstFrameOnly ? 1 : max(1, frameCount)
        try checkSource(canvas, frames: frames, format: format)
        try checkPixelLimit(canvas, format: format)
        return reducedSize(for: canvas, frames: frames)
    }

    /// Throws `imageTooLarge` when `frames` frames of `size` are over ``maxPixelCount``.
    public func checkPixelLimit(_ size: PixelSize, frames: Int = 1, format: ImageFormat) throws(WebImageError) {
        guard maxPixelCount > 0 else { return }
        let (total, overflow) = size.pixelCount.multipliedReportingOverflow(by: max(1, frames))
        if overflow || total > maxPixelCount {
            throw .imageTooLarge(format, size: size, frames: frames, limit: maxPixelCount)
        }
    }

    /// The frame limit, and the work limit: source pixels over all frames within ``reducedSourceFactor`` times
    /// the pixel limit.
    private func checkSource(_ size: PixelSize, frames: Int, format: ImageFormat) throws(WebImageError) {
        if maxFrameCount > 0, frames > maxFrameCount {
            throw WebImageError(
                .imageTooLarge,
                "\(format.name.uppercased()): \(frames) frames is over the limit of \(maxFrameCount) frames"
            )
        }
        guard maxPixelCount > 0 else { return }
        let (limit, limitOverflow) = maxPixelCount.multipliedReportingOverflow(by: ImageDecodeOptions.reducedSourceFactor)
        let (work, workOverflow) = size.pixelCount.multipliedReportingOverflow(by: frames)
        if !limitOverflow, workOverflow || work > limit {
            throw WebImageError(
                .imageTooLarge,
                "\(format.name.uppercased()): \(size) pixels x \(frames) frames is over \(ImageDecodeOptions.reducedSourceFactor) times the limit of \(maxPixelCount) pixels, even reduced"
            )
        }
    }

    /// The thumbnail size, then the scale-down limit; the smaller wins.
    private func reducedSize(for source: PixelSize, frames: Int) -> PixelSize {
        var target = source
        if let thumbnail = thumbnailPixelSize, !thumbnail.isEmpty {
            target = source.scaled(toFit: thumbnail, preserveAspectRatio: preserveAspectRatio)
        }
        if let requested = scaleDownLimitBytes {
            let limit = requested <= 0 ? ImageDecodeOptions.defaultScaleDownLimitBytes : max(requested, 4)
            let (perPixel, o1) = frames.multipliedReportingOverflow(by: 4)
            let (bytes, o2) = source.pixelCount.multipliedReportingOverflow(by: perPixel)
            if o1 || o2 || bytes > limit {
                let limited = source.scaled(toLimitBytes: limit, bytesPerPixel: 4, frameCount: frames)
                if limited.pixelCount < target.pixelCount { target = limited }
            }
        }
        return target
    }
}
