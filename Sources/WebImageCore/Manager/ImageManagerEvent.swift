#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Something a manager reports about its loads, through ``ImageManager/events(bufferingNewest:)`` and, at debug
/// level, its logger: the steps of each ``ImageManager/loadImage(url:options:context:progress:completion:)`` load,
/// for a server's own hooks, logs, metrics and alerts.
///
/// A load sends ``loadStarted(url:key:)``, then ``cacheHit(url:key:cacheType:)`` or ``cacheMiss(url:key:)`` for each
/// key it asks the cache for, ``downloadStarted(url:)`` and ``downloadFinished(url:metrics:error:)`` when it asks the
/// loader, ``decoded(url:pixelSize:duration:)`` when the loader says how long it decoded, ``stored(url:key:cacheType:)``
/// or ``storeFailed(_:)`` for each write, and ``loadFinished(_:)`` last but for the writes that end after it.
/// Cancelled loads send ``loadFinished(_:)`` with `cancelled`. While something listens, a memory hit goes through
/// the same steps (and still completes during the call); while nothing does, it takes a shorter path and sends
/// nothing. A load that fails during the call, before it starts (a nil URL, a URL on the failed list), sends
/// nothing.
///
/// A call of ``ImageManager/loadImageData(url:options:context:completion:)`` sends ``dataLoadStarted(url:key:)`` and
/// ``dataLoadFinished(_:)``, with the variant's key and where its bytes came from (`.none` when they were made), and
/// ``storeFailed(_:)`` when the bytes it made could not be written; a variant it makes loads its image with
/// `loadImage`, whose steps come in between.
public enum ImageManagerEvent: Sendable {
    /// A load went past the memory hit during the call: the cache is asked next, or the loader.
    case loadStarted(url: URL, key: String)
    /// A cache tier held the image under `key`.
    case cacheHit(url: URL, key: String, cacheType: ImageCacheType)
    /// No tier asked held the image under `key`.
    case cacheMiss(url: URL, key: String)
    /// The loader was asked for the image.
    case downloadStarted(url: URL)
    /// The loader answered: its transfer's metrics when it had a transfer, and its error when it failed.
    case downloadFinished(url: URL, metrics: ImageDownloadMetrics?, error: WebImageError?)
    /// The loader decoded the image in `duration`.
    case decoded(url: URL, pixelSize: PixelSize, duration: Duration)
    /// The image or its bytes were written to `cacheType` under `key`.
    case stored(url: URL, key: String, cacheType: ImageCacheType)
    /// A load's image or bytes could not be written to a cache tier (a full or read-only disk, say). The load
    /// itself still delivered its image; with `waitStoreCache` its result says so too
    /// (``ImageLoadResult/storeError``).
    case storeFailed(ImageStoreFailure)
    /// A load ended: its outcome or its error, and its metrics.
    case loadFinished(ImageLoadReport)
    /// A call for a variant's bytes went past the encoded memory tier's look-up during the call.
    case dataLoadStarted(url: URL, key: String)
    /// A call for a variant's bytes ended: where they came from (`.none`: made), or its error; no metrics.
    case dataLoadFinished(ImageLoadReport)
}

/// How one load ended, for ``ImageManagerEvent/loadFinished(_:)``.
public struct ImageLoadReport: Sendable {
    /// The URL asked for.
    public var url: URL
    /// The image's cache key (with its thumbnail and transformer suffixes).
    public var key: String
    /// Where the image came from (`.none`: the loader), or the error the load ended with.
    public var result: Result<ImageCacheType, WebImageError>
    /// Where the time went.
    public var metrics: ImageLoadMetrics?

    public init(url: URL, key: String, result: Result<ImageCacheType, WebImageError>, metrics: ImageLoadMetrics?) {
        self.url = url
        self.key = key
        self.result = result
        self.metrics = metrics
    }
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
