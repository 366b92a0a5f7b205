/// A cache's side of a query it answers itself: it delivers the result once, and learns whether the query was
/// cancelled. Made with its ``CacheQueryToken`` by
/// ``CacheQueryToken/makePromise(key:context:completion:)``, for an ``ImageCaching`` written outside the library.
///
/// ```swift
/// func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType,
///            completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void) -> CacheQueryToken {
///     let (token, promise) = CacheQueryToken.makePromise(key: key, context: context, completion: completion)
///     let request = store.fetch(key) { image in      // the cache's own asynchronous work
///         promise.succeed(ImageCacheQueryResult(image: image, cacheType: image == nil ? .none : .disk))
///     }
///     promise.onCancel { request.cancel() }          // stop the work when the caller no longer wants it
///     return token
/// }
/// ```
///
/// Exactly one outcome reaches the completion: the first of ``succeed(_:)``, ``fail(_:)`` (or
/// ``complete(with:)``) and the token's ``CacheQueryToken/cancel()``; the others do nothing and return false.
/// A cancelled query's completion receives `cancelled` (2002), on the callback queue, without waiting for the
/// cache. The completion runs on the context's callback queue (``CallbackQueue/default`` when it names none) as
/// its policy says: with ``CallbackQueue/inline``, which the manager and ``ImageCaches`` pass their caches, it
/// runs during the call that delivers, so deliver without holding a lock of the cache's.
///
/// A promise released without an outcome answers a miss, so that a cache that forgets to answer delays no load
/// for ever; but the work of a handler given to ``onCancel(_:)`` that holds the promise keeps it alive until the
/// query ends.
///
/// Thread-safe: every member may be called from any thread, at any time.
public final class CacheQueryPromise: Sendable {
    /// The key queried.
    public let key: String
    private let latch: CompletionLatch<ImageCacheQueryResult>

    init(key: String, latch: CompletionLatch<ImageCacheQueryResult>) {
        self.key = key
        self.latch = latch
    }

    deinit {
        latch.finish(.success(.miss))
    }

    /// Delivers what the query found (``ImageCacheQueryResult/miss`` when nothing).
    ///
    /// - Returns: Whether this call delivered it; false when the query was cancelled or answered already.
    @discardableResult
    public func succeed(_ result: ImageCacheQueryResult) -> Bool {
        latch.finish(.success(result))
    }

    /// Fails the query with `error`.
    ///
    /// - Returns: Whether this call delivered it; false when the query was cancelled or answered already.
    @discardableResult
    public func fail(_ error: WebImageError) -> Bool {
        latch.finish(.failure(error))
    }

    /// Delivers `result`.
    ///
    /// - Returns: Whether this call delivered it; false when the query was cancelled or answered already.
    @discardableResult
    public func complete(with result: Result<ImageCacheQueryResult, WebImageError>) -> Bool {
        latch.finish(result)
    }

    /// Whether the query was cancelled: a cache doing its work in steps checks it between them and stops.
    public var isCancelled: Bool { latch.isCancelled }

    /// Whether the query has an outcome: a result, an error, or cancellation.
    public var isFinished: Bool { latch.isDone }

    /// Runs `handler` once when the query is cancelled: at once, on this thread, when it was cancelled already;
    /// later, on the thread that calls ``CacheQueryToken/cancel()``, during that call, otherwise. Dropped (never
    /// run) once the query has its result. Keep it quick and do not wait in it for the cache's own work: it runs
    /// before the cancelled completion is scheduled.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        latch.onCancel(handler)
    }
}
