#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The look-ups that go to each tier of the composite, highest first: the memory tier during the call, the bytes
/// on disk for a data load, the HTTP validators; and the fill of the tiers above a hit.
extension ImageCaches {
    /// A chain of tiers, fastest first: a local ``ImageCache`` (memory, then disk) in front of a tier that several
    /// processes share, for example.
    ///
    /// ```swift
    /// let caches = ImageCaches(tiers: [localCache, sharedCache])
    /// let manager = ImageManager(cache: caches, loader: downloader, coder: registry)
    /// ```
    ///
    /// A query asks each tier in turn (``queryPolicy`` `.serial`) and a hit in a lower tier fills the tiers above
    /// it (``fillsHigherCaches``); a store writes through to every tier at once (``storePolicy`` `.concurrent`);
    /// remove and clear go to all. The policies can be changed afterwards like those of any composite.
    public convenience init(tiers: [any ImageCaching]) {
        self.init(tiers)
        storePolicy = .concurrent
        fillsHigherCaches = true
    }

    /// The first image a cache's memory tier holds under `key`, asking each cache in ``caches`` order during the
    /// call.
    public func memoryImage(forKey key: String, options: ImageOptions, framesOnDemand: Bool) -> Image? {
        for cache in caches {
            if let image = cache.memoryImage(forKey: key, options: options, framesOnDemand: framesOnDemand) { return image }
        }
        return nil
    }

    /// The bytes the first cache to hold them has under `key`, asking each cache in turn, highest first. With
    /// ``fillsHigherCaches``, bytes found in a lower cache are written to the disk tier of each cache above it
    /// (in the background). `completion` runs once, on the thread of the cache that answered last.
    public func diskData(forKey key: String, completion: @escaping @Sendable (Data?) -> Void) {
        let (caches, fills) = tiers
        @Sendable func next(_ index: Int) {
            guard index < caches.count else { return completion(nil) }
            caches[index].diskData(forKey: key) { data in
                guard let data else { return next(index + 1) }
                if fills, index > 0 {
                    Self.fill(Array(caches[..<index]), image: nil, data: data, key: key, options: [], context: ImageContext())
                }
                completion(data)
            }
        }
        next(0)
    }

    /// The validators of the first cache that keeps any for `key`, asking each in ``caches`` order.
    public func revalidation(forKey key: String) -> ImageRevalidation? {
        for cache in caches {
            if let revalidation = cache.revalidation(forKey: key) { return revalidation }
        }
        return nil
    }

    /// Stores the validators with every cache (each keeps them only if it holds the entry); `completion` runs once
    /// all have.
    public func setRevalidation(_ revalidation: ImageRevalidation, forKey key: String, completion: (@Sendable () -> Void)?) {
        let caches = caches
        guard !caches.isEmpty else {
            completion?()
            return
        }
        let remaining = Locked(caches.count)
        for cache in caches {
            cache.setRevalidation(revalidation, forKey: key) {
                let last = remaining.withLock { count -> Bool in
                    count -= 1
                    return count == 0
                }
                if last { completion?() }
            }
        }
    }

    /// Tells every cache that the load of `key` has ended.
    public func loadEnded(forKey key: String) {
        for cache in caches { cache.loadEnded(forKey: key) }
    }

    /// Stores what a lower cache found into each of `caches`, in the tiers the context's store type names (all
    /// when it names none; the disk tier alone for bytes without an image, and for an image decoded to a
    /// thumbnail of a full-size entry). Nothing waits for the stores; a store that fails leaves that cache as it
    /// was.
    static func fill(
        _ caches: [any ImageCaching], image: Image?, data: Data?, key: String, options: ImageOptions, context: ImageContext
    ) {
        var cacheType = context.storeCacheType ?? .all
        // An image decoded to a thumbnail stands in memory for the full image under no key: its bytes fill the
        // disk tiers alone (a cache's own disk look-up keeps such an image under the thumbnail's key).
        let isThumbnail = context.thumbnailPixelSize.map { !$0.isEmpty } ?? false
        if image == nil || (isThumbnail && !ImageCacheKeys.isThumbnailKey(key)) { cacheType = cacheType.withoutMemory }
        guard cacheType != .none, image != nil || data != nil else { return }
        var context = context
        context.callbackQueue = .inline
        for cache in caches {
            cache.store(image, data: data, key: key, options: options, context: context, cacheType: cacheType, completion: nil)
        }
    }
}
