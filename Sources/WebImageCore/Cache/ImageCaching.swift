#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cache of images by key, as SDWebImage's `SDImageCache` protocol: what the manager queries before loading
/// and stores into after.
///
/// Every completion runs exactly once, on the context's callback queue (``CallbackQueue/default`` when it has
/// none), never on a cache's own queues.
///
/// A cache is a shared service with an identity, as in Nuke: only classes conform, so that a manager holds a cache
/// as one reference and asks its memory tier without unboxing it.
public protocol ImageCaching: AnyObject, Sendable {
    /// The image the memory tier holds under `key`, as a query with `options` would hand it out, read during the
    /// call: no thread switch, no disk access, no callback. `framesOnDemand` says whether the caller wants an
    /// animation decoded frame by frame (with `matchAnimatedImageClass`, an image decoded otherwise is a miss).
    ///
    /// The manager, the async loads and the view binding ask here first and complete a hit during their call. A
    /// cache without a synchronous memory tier keeps the default, which answers nil: its memory is then queried
    /// through ``query(key:options:context:cacheType:completion:)`` like the rest.
    func memoryImage(forKey key: String, options: ImageOptions, framesOnDemand: Bool) -> Image?

    /// Looks `key` up in the tiers `cacheType` names.
    ///
    /// A cache of your own makes the token it returns, and the promise it answers through, with
    /// ``CacheQueryToken/makePromise(key:context:completion:)``.
    ///
    /// - Returns: A token that cancels the query; already finished when the result was ready during the call.
    @discardableResult
    func query(
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> CacheQueryToken

    /// Stores `image` (and `data`, the encoded form to write to disk; when nil, the bytes an animation decoded on
    /// demand came from, else encoded from the image) under `key` in the tiers `cacheType` names.
    func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: (@Sendable (Result<Void, WebImageError>) -> Void)?
    )

    /// Removes `key` from the tiers `cacheType` names.
    func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?)

    /// Finds which tier holds `key`: memory is checked first; `.none` when neither does.
    func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void)

    /// Empties the tiers `cacheType` names.
    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?)

    /// The HTTP validators stored with the disk entry of `key`, for a `refreshCached` load; nil when there are
    /// none. May block briefly on disk IO; never called on a cache's own queues.
    func revalidation(forKey key: String) -> ImageRevalidation?

    /// The bytes stored on disk under `key`, undecoded, or nil: what ``ImageManager/loadImageData(url:options:context:completion:)``
    /// serves without decoding. `completion` runs once, on a library thread that is not one of the cache's own
    /// queues. A cache without a disk tier keeps the default, which finds nothing.
    func diskData(forKey key: String, completion: @escaping @Sendable (Data?) -> Void)

    /// Stores HTTP validators with the disk entry of `key`, which exists (the manager calls this once the entry
    /// is written). Returns at once; `completion`, when given, runs once they are stored, on a library thread.
    func setRevalidation(_ revalidation: ImageRevalidation, forKey key: String, completion: (@Sendable () -> Void)?)

    /// Tells the cache that a load which looked `key` up has ended: what it stores under `key` has been handed to
    /// the cache, or it failed, or it was cancelled. The manager calls it once for each key a load looked up
    /// (more than once is harmless), on a library thread, and does not wait for it. A cache that coordinates the
    /// loads of a key across processes lets go here of what it still holds for `key` (the Redis tier's fleet
    /// claim). The default does nothing.
    func loadEnded(forKey key: String)
}

extension ImageCaching {
    /// No synchronous memory tier: every look-up goes through ``query(key:options:context:cacheType:completion:)``.
    public func memoryImage(forKey key: String, options: ImageOptions, framesOnDemand: Bool) -> Image? { nil }

    /// No disk tier: nothing is found.
    public func diskData(forKey key: String, completion: @escaping @Sendable (Data?) -> Void) {
        completion(nil)
    }

    /// No validators: a cache that keeps none makes every `refreshCached` load unconditional.
    public func revalidation(forKey key: String) -> ImageRevalidation? { nil }

    /// Holds nothing for a load.
    public func loadEnded(forKey key: String) {}

    /// Keeps nothing.
    public func setRevalidation(_ revalidation: ImageRevalidation, forKey key: String, completion: (@Sendable () -> Void)?) {
        completion?()
    }
}

/// What a cache query found.
public struct ImageCacheQueryResult: Sendable {
    /// The image, or nil on a miss.
    public var image: Image?
    /// The encoded data, when the query read it (disk hits, and memory hits with `queryMemoryData`).
    public var data: Data?
    /// Where the image was found; `.none` on a miss.
    public var cacheType: ImageCacheType

    public init(image: Image?, data: Data? = nil, cacheType: ImageCacheType) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
    }

    /// A miss.
    public static let miss = ImageCacheQueryResult(image: nil, cacheType: .none)
}

/// A cache query in progress; cancel it to stop the read and the decode.
///
/// The query's completion runs exactly once: with the result, or with `cancelled` (2002) when ``cancel()``
/// comes first, whatever the race between the two. Cancelling after the result has been delivered does nothing.
public final class CacheQueryToken: Sendable {
    /// The key queried.
    public let key: String
    private let latch: CompletionLatch<ImageCacheQueryResult>

    package init(key: String, latch: CompletionLatch<ImageCacheQueryResult>) {
        self.key = key
        self.latch = latch
    }

    /// Stops the query: the read and the decode are skipped if they have not started, and the completion
    /// receives `cancelled` unless it already has its result. Thread-safe; returns at once.
    public func cancel() {
        latch.cancel()
    }

    /// Whether the query was cancelled.
    public var isCancelled: Bool { latch.isCancelled }

    /// Whether the query has delivered its result or been cancelled.
    public var isFinished: Bool { latch.isDone }
}
