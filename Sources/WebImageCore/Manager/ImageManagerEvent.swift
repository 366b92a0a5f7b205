#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Something a manager reports about its loads as a whole, through ``ImageManager/events(bufferingNewest:)``: what
/// a server feeds into its logs, metrics and alerts.
public enum ImageManagerEvent: Sendable {
    /// A load's image or bytes could not be written to a cache tier (a full or read-only disk, say). The load
    /// itself still delivered its image; with `waitStoreCache` its result says so too
    /// (``ImageLoadResult/storeError``).
    case storeFailed(ImageStoreFailure)
}

/// A cache write that failed during a load.
public struct ImageStoreFailure: Sendable {
    /// The URL that was loaded.
    public var url: URL
    /// The key the image or bytes were to be stored under (the original key, or a thumbnail's or transformed
    /// image's key).
    public var key: String
    /// The tiers the write was asked for.
    public var cacheType: ImageCacheType
    /// Why it failed: `diskIO` for a failed disk write, or an encoder's error.
    public var error: WebImageError

    /// A failure, for caches of one's own and for tests.
    public init(url: URL, key: String, cacheType: ImageCacheType, error: WebImageError) {
        self.url = url
        self.key = key
        self.cacheType = cacheType
        self.error = error
    }
}
