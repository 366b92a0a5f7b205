extension CacheQueryToken {
    /// Makes the token an ``ImageCaching/query(key:options:context:cacheType:completion:)`` of your own returns,
    /// and the promise through which your cache answers it.
    ///
    /// Return the token to the caller; deliver through the promise (``CacheQueryPromise/succeed(_:)``), and
    /// watch it for cancellation (``CacheQueryPromise/onCancel(_:)`` or ``CacheQueryPromise/isCancelled``). See
    /// ``CacheQueryPromise`` for an example.
    ///
    /// - Parameters:
    ///   - key: The key queried.
    ///   - context: The query's context: its callback queue (``CallbackQueue/default`` when it names none) is
    ///     where `completion` runs, as ``ImageCaching`` requires.
    ///   - completion: The query's completion, as the caller passed it; it runs exactly once.
    /// - Returns: The token, whose ``cancel()`` completes the query with `cancelled` (2002) and runs the
    ///   promise's cancellation handlers, and the promise.
    public static func makePromise(
        key: String,
        context: ImageContext,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> (token: CacheQueryToken, promise: CacheQueryPromise) {
        let latch = CompletionLatch<ImageCacheQueryResult>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the cache query for \(key) was cancelled") },
            handler: completion
        )
        return (CacheQueryToken(key: key, latch: latch), CacheQueryPromise(key: key, latch: latch))
    }
}
