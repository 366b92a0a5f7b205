extension PixelSize {
    /// The size of this image after fitting or stretching it to `target`, as SDWebImage's
    /// `scaledSizeWithImageSize:scaleSize:preserveAspectRatio:shouldScaleUp:` computes it.
    ///
    /// - Fitting keeps the aspect ratio: the constrained side takes the target's value and the other side is
    ///   rounded up. Stretching takes the target size.
    /// - Without upscaling, each side is capped at this size.
    /// - When either size has a side of zero or less, this size is returned unchanged.
    public func scaled(
        toFit target: PixelSize,
        preserveAspectRatio: Bool = true,
        allowUpscaling: Bool = false
    ) -> PixelSize {
        guard !isEmpty, !target.isEmpty else { return self }
        var result: PixelSize
        if preserveAspectRatio {
            let pixelRatio = Double(width) / Double(height)
            let targetRatio = Double(target.width) / Double(target.height)
            if pixelRatio > targetRatio {
                result = PixelSize(width: target.width, height: PixelSize.side((Double(target.width) / pixelRatio).rounded(.up)))
            } else {
                result = PixelSize(width: PixelSize.side((Double(target.height) * pixelRatio).rounded(.up)), height: target.height)
            }
        } else {
            result = target
        }
        if !allowUpscaling {
            result = PixelSize(width: Swift.min(width, result.width), height: Swift.min(height, result.height))
        }
        return PixelSize(width: Swift.max(1, result.width), height: Swift.max(1, result.height))
    }

    /// The largest size with this aspect ratio whose frames fit in `limitBytes`, as SDWebImage's
    /// `scaledSizeWithImageSize:limitBytes:bytesPerPixel:frameCount:` computes it.
    ///
    /// Pixels per frame = limit / bytesPerPixel / frameCount; width = √(pixels / ratio), height = width × ratio,
    /// each side floored with a minimum of 1. A zero size gives 1 x 1. The result is not capped at this size.
    public func scaled(toLimitBytes limitBytes: Int, bytesPerPixel: Int = 4, frameCount: Int = 1) -> PixelSize {
        guard !isEmpty else { return PixelSize(width: 1, height: 1) }
        let framePixels = Double(limitBytes / Swift.max(1, bytesPerPixel) / Swift.max(1, frameCount))
        let ratio = Double(height) / Double(width)
        let w = (framePixels / ratio).squareRoot()
        let h = w * ratio
        return PixelSize(width: PixelSize.side(w.rounded(.down)), height: PixelSize.side(h.rounded(.down)))
    }

    /// A computed side as an integer: at least 1, and at most `Int.max / 8` so that later products of sizes
    /// stay representable (sizes come from callers and from file headers, neither to be trusted).
    private static func side(_ value: Double) -> Int {
        guard value.isFinite else { return 1 }
        return Int(Swift.min(Swift.max(value, 1), Double(Int.max / 8)))
    }
}
