extension ImageContext {
    /// The decode options a load with `options` and this context uses for `cacheKey`, as SDWebImage's
    /// `SDGetDecodeOptionsFromContext`: the context's base options, then first frame only from the flag, the
    /// scale (the context's when at least 1, else from an `@2x.`/`@3x.` key), the aspect-ratio rule, the
    /// thumbnail size, and the scale-down limit (the context's, else the default with `scaleDownLargeImages`);
    /// then frames on demand from the context, and their preloading from `preloadAllFrames`.
    public func decodeOptions(for options: ImageOptions, cacheKey: String?) -> ImageDecodeOptions {
        var result = decodeOptions ?? ImageDecodeOptions()
        if options.contains(.decodeFirstFrameOnly) { result.firstFrameOnly = true }
        if let scale = scaleFactor, scale >= 1 {
            result.scaleFactor = scale
        } else if let cacheKey {
            result.scaleFactor = ImageCacheKeys.scaleFactor(forKey: cacheKey)
        }
        if let preserveAspectRatio { result.preserveAspectRatio = preserveAspectRatio }
        if let thumbnailPixelSize, !thumbnailPixelSize.isEmpty { result.thumbnailPixelSize = thumbnailPixelSize }
        if let scaleDownLimitBytes {
            result.scaleDownLimitBytes = scaleDownLimitBytes
        } else if options.contains(.scaleDownLargeImages) {
            result.scaleDownLimitBytes = ImageDecodeOptions.defaultScaleDownLimitBytes
        }
        if let framesOnDemand { result.framesOnDemand = framesOnDemand }
        if options.contains(.preloadAllFrames) { result.preloadsAllFrames = true }
        return result
    }
}
