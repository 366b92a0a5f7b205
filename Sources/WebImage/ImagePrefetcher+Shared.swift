import WebImageCore

extension ImagePrefetcher {
    /// The prefetcher most code uses. It has its own manager (as SDWebImage's shared prefetcher does) over the
    /// shared cache and loader, so that ``ImageManager/cancelAll()`` on the shared manager leaves prefetches alone.
    public static let shared = ImagePrefetcher(
        manager: ImageManager(cache: ImageManager.shared.cache, loader: ImageManager.shared.loader, coder: ImageManager.shared.coder)
    )
}
