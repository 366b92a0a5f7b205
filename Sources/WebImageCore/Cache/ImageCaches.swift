#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Several caches behind one, in priority order, as SDWebImage's `SDImageCachesManager`. Each kind of operation
/// follows its own ``ImageCachesOperationPolicy``; the defaults are SDWebImage's: a query asks the caches in turn,
/// highest first, until one has the image (``queryPolicy`` `.serial`); a store goes to the highest only
/// (``storePolicy`` `.highestOnly`); remove and clear go to all at once (`.concurrent`); a contains check asks in
/// turn (`.serial`). Use it to put a shared second tier behind a local cache.
///
/// ```swift
/// let caches = ImageCaches([localCache, sharedCache])
/// caches.storePolicy = .concurrent    // write through to both tiers
/// let manager = ImageManager(cache: caches, loader: downloader)
/// ```
///
/// Thread-safe; the list and the policies can be changed while other threads use them (each call works on a
/// snapshot taken when it starts).
public final class ImageCaches: ImageCaching, Sendable {
    private struct Settings {
        var caches: [any ImageCaching]
        var query = ImageCachesOperationPolicy.serial
        var store = ImageCachesOperationPolicy.highestOnly
        var remove = ImageCachesOperationPolicy.concurrent
        var contains = ImageCachesOperationPolicy.serial
        var clear = ImageCachesOperationPolicy.concurrent
        var fillsHigherCaches = false
    }

    private let settings: Locked<Settings>

    /// Creates the composite; `caches` are in priority order, highest first.
    public init(_ caches: [any ImageCaching]) {
        settings = Locked(Settings(caches: caches))
    }

    /// The caches, highest priority first.
    public var caches: [any ImageCaching] {
        get { settings.withLock { $0.caches } }
        set { settings.withLock { $0.caches = newValue } }
    }

    /// How ``query(key:options:context:cacheType:completion:)`` goes through the caches; `.serial` by default.
    public var queryPolicy: ImageCachesOperationPolicy {
        get { settings.withLock { $0.query } }
        set { settings.withLock { $0.query = newValue } }
    }

    /// How ``store(_:data:key:options:context:cacheType:completion:)`` goes through the caches; `.highestOnly` by
    /// default.
    public var storePolicy: ImageCachesOperationPolicy {
        get { settings.withLock { $0.store } }
        set { settings.withLock { $0.store = newValue } }
    }

    /// How ``remove(key:cacheType:completion:)`` goes through the caches; `.concurrent` by default.
    public var removePolicy: ImageCachesOperationPolicy {
        get { settings.withLock { $0.remove } }
        set { settings.withLock { $0.remove = newValue } }
    }

    /// How ``contains(key:cacheType:completion:)`` goes through the caches; `.serial` by default.
    public var containsPolicy: ImageCachesOperationPolicy {
        get { settings.withLock { $0.contains } }
        set { settings.withLock { $0.contains = newValue } }
    }

    /// How ``clear(cacheType:completion:)`` goes through the caches; `.concurrent` by default.
    public var clearPolicy: ImageCachesOperationPolicy {
        get { settings.withLock { $0.clear } }
        set { settings.withLock { $0.clear = newValue } }
    }

    /// Whether an image or bytes found in a cache fill the caches ahead of it in ``caches``: false by default, as
    /// SDWebImage's caches manager. With true, the composite is a chain of tiers (a local cache in front of a
    /// shared one; see ``init(tiers:)``): a hit in a lower tier, by a `.serial` query or by
    /// ``diskData(forKey:completion:)``, is stored into each tier above it, as the context's
    /// ``ImageContext/storeCacheType`` allows (``ImageCacheType/all`` when it names none), so that the next
    /// look-up stops higher. The fill runs in the background; the query does not wait for it.
    public var fillsHigherCaches: Bool {
        get { settings.withLock { $0.fillsHigherCaches } }
        set { settings.withLock { $0.fillsHigherCaches = newValue } }
    }

    /// The caches, and whether hits fill the ones above them, in one snapshot.
    var tiers: (caches: [any ImageCaching], fills: Bool) {
        settings.withLock { ($0.caches, $0.fillsHigherCaches) }
    }

    /// The caches an operation with `policy` goes to, in the order it asks them: one for the `...Only` policies.
    private func targets(_ policy: KeyPath<Settings, ImageCachesOperationPolicy>) -> (ImageCachesOperationPolicy, [any ImageCaching]) {
        settings.withLock { settings in
            let policy = settings[keyPath: policy]
            switch policy {
            case .highestOnly: return (policy, Array(settings.caches.prefix(1)))
            case .lowestOnly: return (policy, Array(settings.caches.suffix(1)))
            case .concurrent, .serial: return (policy, settings.caches)
            }
        }
    }

    /// Asks the caches as ``queryPolicy`` says: in turn until one has the image (`.serial`), all at once with the
    /// first image to come winning (`.concurrent`), or one cache alone. Without an image from any, a failure of
    /// one (other than a cancellation) is the result, else a miss. Cancelling the token cancels every query in
    /// flight and stops the walk; the completion runs once, on the context's callback queue.
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
        let (policy, targets) = targets(\.query)
        if policy == .concurrent {
            askAll(targets, key: key, options: options, context: inner, cacheType: cacheType, latch: latch)
        } else {
            let fills = policy == .serial && fillsHigherCaches
            ask(
                targets[...], above: [], fills: fills, key: key, options: options, context: inner, cacheType: cacheType,
                latch: latch, duringCall: true
            )
        }
        return token
    }

    /// Queries every cache at once: the first image wins, and the other queries are cancelled.
    private func askAll(
        _ targets: [any ImageCaching],
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        latch: CompletionLatch<ImageCacheQueryResult>
    ) {
        guard !targets.isEmpty else {
            latch.finish(.success(.miss), duringCall: true)
            return
        }
        struct Progress {
            var pending: Int
            var failure: WebImageError?
            var tokens: [CacheQueryToken] = []
        }
        let progress = Locked(Progress(pending: targets.count))
        for cache in targets {
            // A cache that answered during its call may already have found the image.
            if latch.isDone { break }
            let token = cache.query(key: key, options: options, context: context, cacheType: cacheType) { result in
                var found: ImageCacheQueryResult?
                let (last, failure) = progress.withLock { progress -> (Bool, WebImageError?) in
                    progress.pending -= 1
                    switch result {
                    case .success(let answer) where answer.image != nil: found = answer
                    case .success: break
                    case .failure(let error): if error.code != .cancelled, progress.failure == nil { progress.failure = error }
                    }
                    return (progress.pending == 0, progress.failure)
                }
                if let found {
                    latch.finish(.success(found))
                    let others = progress.withLock { $0.tokens }
                    for other in others { other.cancel() }
                } else if last {
                    latch.finish(failure.map { .failure($0) } ?? .success(.miss))
                }
            }
            progress.withLock { $0.tokens.append(token) }
        }
        latch.onCancel {
            for token in progress.withLock({ $0.tokens }) { token.cancel() }
        }
        // Queries started after the image was found have nothing left to do.
        if latch.isDone {
            for token in progress.withLock({ $0.tokens }) { token.cancel() }
        }
    }

    private func ask(
        _ remaining: ArraySlice<any ImageCaching>,
        above: [any ImageCaching],
        fills: Bool,
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
                if fills, !above.isEmpty {
                    Self.fill(above, image: found.image, data: found.data, key: key, options: options, context: context)
                }
                latch.finish(.success(found), duringCall: duringCall && synchronous)
            case .success:
                ask(
                    remaining.dropFirst(), above: above + [cache], fills: fills, key: key, options: options, context: context,
                    cacheType: cacheType, latch: latch, duringCall: duringCall && synchronous
                )
            case .failure(let error):
                if error.code != .cancelled { latch.finish(.failure(error), duringCall: duringCall && synchronous) }
            }
        }
        answered.withLock { $0 = true }
        latch.onCancel { subToken.cancel() }
    }

    /// Stores as ``storePolicy`` says: into one cache (`.highestOnly`, the default, or `.lowestOnly`), into all
    /// at once (`.concurrent`), or into each in turn, highest first (`.serial`). The completion runs once, when
    /// every store has finished, with the first failure if any; on the context's callback queue.
    public func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: (@Sendable (Result<Void, WebImageError>) -> Void)?
    ) {
        let (policy, targets) = targets(\.store)
        if targets.count == 1 {
            targets[0].store(image, data: data, key: key, options: options, context: context, cacheType: cacheType, completion: completion)
            return
        }
        let callbackQueue = context.callbackQueue ?? .default
        var innerContext = context
        innerContext.callbackQueue = .inline
        let inner = innerContext
        let firstFailure = Locked<WebImageError?>(nil)
        run(targets, serially: policy == .serial, completion: completion.map { completion in
            { @Sendable duringCall in
                let failure = firstFailure.withLock { $0 }
                callbackQueue.execute(duringCall: duringCall) { completion(failure.map { .failure($0) } ?? .success(())) }
            }
        }) { cache, done in
            cache.store(image, data: data, key: key, options: options, context: inner, cacheType: cacheType) { result in
                if case .failure(let error) = result { firstFailure.withLock { $0 = $0 ?? error } }
                done()
            }
        }
    }

    /// Removes as ``removePolicy`` says (from every cache at once by default); completes when all have.
    public func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        let (policy, targets) = targets(\.remove)
        run(targets, serially: policy == .serial, completion: Self.ignoringDuringCall(completion)) { cache, done in
            cache.remove(key: key, cacheType: cacheType, completion: done)
        }
    }

    /// Clears as ``clearPolicy`` says (every cache at once by default); completes when all have.
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        let (policy, targets) = targets(\.clear)
        run(targets, serially: policy == .serial, completion: Self.ignoringDuringCall(completion)) { cache, done in
            cache.clear(cacheType: cacheType, completion: done)
        }
    }

    /// Asks as ``containsPolicy`` says: each cache in turn, highest first, until one holds `key` (`.serial`, the
    /// default), all at once with the first to hold it answering (`.concurrent`), or one cache alone. The
    /// completion runs once.
    public func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        let (policy, targets) = targets(\.contains)
        guard policy == .concurrent, targets.count > 1 else {
            @Sendable func next(_ index: Int) {
                guard index < targets.count else {
                    completion(.none)
                    return
                }
                targets[index].contains(key: key, cacheType: cacheType) { found in
                    if found != .none { completion(found) } else { next(index + 1) }
                }
            }
            next(0)
            return
        }
        let progress = Locked((pending: targets.count, answered: false))
        for cache in targets {
            cache.contains(key: key, cacheType: cacheType) { found in
                let answers = progress.withLock { progress -> Bool in
                    progress.pending -= 1
                    guard !progress.answered, found != .none || progress.pending == 0 else { return false }
                    progress.answered = true
                    return true
                }
                if answers { completion(found) }
            }
        }
    }

    private static func ignoringDuringCall(_ completion: (@Sendable () -> Void)?) -> (@Sendable (Bool) -> Void)? {
        guard let completion else { return nil }
        return { _ in completion() }
    }

    /// Runs `operation` on `targets`, all at once or one after another, and calls `completion` once the last has
    /// finished, telling it whether that happened during this call.
    private func run(
        _ targets: [any ImageCaching],
        serially: Bool,
        completion: (@Sendable (_ duringCall: Bool) -> Void)?,
        _ operation: @escaping @Sendable (any ImageCaching, @escaping @Sendable () -> Void) -> Void
    ) {
        guard !targets.isEmpty else {
            completion?(true)
            return
        }
        let inCall = Locked(true)
        if serially {
            @Sendable func next(_ index: Int) {
                guard index < targets.count else {
                    completion?(inCall.withLock { $0 })
                    return
                }
                operation(targets[index]) { next(index + 1) }
            }
            next(0)
        } else {
            let remaining = Locked(targets.count)
            for cache in targets {
                operation(cache) {
                    let last = remaining.withLock { count -> Bool in
                        count -= 1
                        return count == 0
                    }
                    if last { completion?(inCall.withLock { $0 }) }
                }
            }
        }
        inCall.withLock { $0 = false }
    }
}
