extension ImageCache {
    /// What one query or look-up does, worked out once from its key, options and context.
    struct QueryPlan: Sendable {
        /// The key on disk.
        let key: String
        /// The key in memory: the key itself, or its thumbnail key when the context asks for a thumbnail of a
        /// full-size entry (so that a thumbnail never stands in memory for the full image).
        let memoryKey: String
        let options: ImageOptions
        let decodeOptions: ImageDecodeOptions
        let coder: any ImageCoding
        /// Whether the context named its own coder (such queries are not shared with others).
        let hasOwnCoder: Bool
        /// Whether a disk hit goes back into memory.
        let writesBackToMemory: Bool
        let callbackQueue: CallbackQueue

        init(cache: ImageCache, key: String, options: ImageOptions, context: ImageContext) {
            self.key = key
            self.options = options
            let decodeOptions = context.decodeOptions(for: options, cacheKey: key)
            self.decodeOptions = decodeOptions
            if let size = decodeOptions.thumbnailPixelSize, !size.isEmpty, !ImageCacheKeys.isThumbnailKey(key) {
                memoryKey = ImageCacheKeys.thumbnailKey(for: key, size: size, preserveAspectRatio: decodeOptions.preserveAspectRatio)
            } else {
                memoryKey = key
            }
            coder = context.imageCoder ?? cache.coder
            hasOwnCoder = context.imageCoder != nil
            writesBackToMemory = cache.config.shouldCacheImagesInMemory && (context.storeCacheType ?? .all).includesMemory
            callbackQueue = context.callbackQueue ?? .default
        }

        /// The memory tier's image for this plan: handed out as its first frame with `decodeFirstFrameOnly`; a
        /// miss with `matchAnimatedImageClass` when it is a first-frame-only decode and the caller wants frames.
        func memoryHit(in cache: ImageCache) -> Image? {
            cache.memoryImage(forKey: memoryKey, options: options, framesOnDemand: decodeOptions.framesOnDemand)
        }

        /// The identity of the read and decode this plan needs, for sharing them between concurrent queries; nil
        /// when the context's own coder makes the decode particular to this query.
        func readKey(rechecksMemory: Bool) -> ReadKey? {
            hasOwnCoder ? nil : ReadKey(
                key: key,
                memoryKey: memoryKey,
                decodeOptions: decodeOptions,
                writesBackToMemory: writesBackToMemory,
                rechecksMemory: rechecksMemory
            )
        }
    }

    /// The identity of a disk read and its decode: concurrent queries with equal keys share one of each.
    struct ReadKey: Hashable, Sendable {
        var key: String
        var memoryKey: String
        var decodeOptions: ImageDecodeOptions
        var writesBackToMemory: Bool
        var rechecksMemory: Bool
    }
}

extension ImageCache {
    /// The memory tier's image for `key` as a query with `options` sees it: handed out as its first frame with
    /// `decodeFirstFrameOnly`; nil with `matchAnimatedImageClass` when it is a first-frame-only decode, or when
    /// the caller wants frames on demand and the image was not decoded that way. No lock but the memory tier's,
    /// no allocation; thread-safe.
    public func memoryImage(forKey key: String, options: ImageOptions, framesOnDemand: Bool) -> Image? {
        guard let image = memoryCache.image(forKey: key) else { return nil }
        if options.contains(.decodeFirstFrameOnly) { return image.firstFrame }
        if options.contains(.matchAnimatedImageClass) {
            if image.decodeOptions?.firstFrameOnly == true { return nil }
            if framesOnDemand, image.animation == nil, image.decodeOptions?.framesOnDemand != true { return nil }
        }
        return image
    }
}
