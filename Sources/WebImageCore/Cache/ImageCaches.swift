#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Several caches behind one, in priority order, as SDWebImage's `SDImageCachesManager`: a query asks the
/// highest-priority cache first and goes down the list until one has the image; a store goes to the highest
/// only; remove and clear go to all. Use it to put a shared second tier behind a local cache.
///
/// Thread-safe; the list can be changed while other threads use it (each call works on a snapshot).
public final class ImageCaches: ImageCaching, Sendable {
    private let list: Locked<[any ImageCaching]>

    /// Creates the composite; `caches` are in priority order, highest first.
    public init(_ caches: [any ImageCaching]) {
        list = Locked(caches)
    }

    /// The caches, highest priority first.
    public var caches: [any ImageCaching] {
        get { list.withLock { $0 } }
        set { list.withLock { $0 = newValue } }
    }

    /// Asks each cache in turn, highest first, until one has the image. Cancelling the token cancels the query
    /// in flight and stops the walk; the completion runs once.
    @discardableResult
    public func query(
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> CacheQueryToken {
        let latch = CompletionLatch<ImageCacheQueryResult>(
            callbackQueue: context.callbackQueue ?? .default,
            cancellationError: WebImageError(.cancelled, "the cache query for \(key) was cancelled"),
            handler: completion
        )
        let token = CacheQueryToken(key: key, latch: latch)
        // Each cache answers on the inline policy; only the final result goes to the caller's queue.
        var inner = context
        inner.callbackQueue = .inline
        ask(caches[...], key: key, options: options, context: inner, cacheType: cacheType, latch: latch, duringCall: true)
        return token
    }

    private func ask(
        _ remaining: ArraySlice<any ImageCaching>,
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        latch: CompletionLatch<ImageCacheQueryResult>,
        duringCall: Bool
    ) {
        guard let cache = remaining.first, !latch.isDone else {
            latch.finish(.success(.miss), duringCall: duringCall)
            return
        }
        let answered = Locked(false)
        let subToken = cache.query(key: key, options: options, context: context, cacheType: cacheType) { [self] result in
            let synchronous = !answered.withLock { $0 }
            switch result {
            case .success(let found) where found.image != nil:
                latch.finish(.success(found), duringCall: duringCall && synchronous)
            case .success:
                ask(remaining.dropFirst(), key: key, options: options, context: context, cacheType: cacheType, latch: latch, duringCall: duringCall && synchronous)
            case .failure(let error):
                if error.code != .cancelled { latch.finish(.failure(error), duringCall: duringCall && synchronous) }
            }
        }
        answered.withLock { $0 = true }
        latch.onCancel { subToken.cancel() }
    }

    /// Stores into the highest-priority cache only.
    public func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: (@Sendable (Result<Void, WebImageError>) -> Void)?
    ) {
        guard let first = caches.first else {
            if let completion { (context.callbackQueue ?? .default).execute(duringCall: true) { completion(.success(())) } }
            return
        }
        first.store(image, data: data, key: key, options: options, context: context, cacheType: cacheType, completion: completion)
    }

    /// Removes from every cache; completes when all have.
    public func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        forEachCache(completion) { cache, done in cache.remove(key: key, cacheType: cacheType, completion: done) }
    }

    /// Clears every cache; completes when all have.
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        forEachCache(completion) { cache, done in cache.clear(cacheType: cacheType, completion: done) }
    }

    /// Asks each cache in turn, highest first, until one holds `key`.
    public func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        let snapshot = caches
        @Sendable func next(_ index: Int) {
            guard index < snapshot.count else {
                completion(.none)
                return
            }
            snapshot[index].contains(key: key, cacheType: cacheType) { found in
                if found != .none { completion(found) } else { next(index + 1) }
            }
        }
        next(0)
    }

    /// Runs `operation` on every cache at once and calls `completion` when the last has finished.
    private func forEachCache(
        _ completion: (@Sendable () -> Void)?,
        _ operation: (any ImageCaching, @escaping @Sendable () -> Void) -> Void
    ) {
        let snapshot = caches
        guard !snapshot.isEmpty else {
            completion?()
            return
        }
        let remaining = Locked(snapshot.count)
        for cache in snapshot {
            operation(cache) {
                let last = remaining.withLock { count -> Bool in
                    count -= 1
                    return count == 0
                }
                if last { completion?() }
            }
        }
    }
}
