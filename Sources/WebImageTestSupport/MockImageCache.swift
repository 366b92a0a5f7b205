#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import WebImageCore

/// An ``ImageCaching`` over a dictionary, for tests of what sits above a cache: it holds images (with their data
/// and validators) by key in one tier, answers every query later on the context's callback queue, and records
/// what it was asked.
///
/// With `looksUpMemoryDuringCall` it also answers ``memoryImage(forKey:options:framesOnDemand:)`` (the manager's
/// memory hit); without, it keeps the protocol's default, as a cache with no synchronous tier does. Stores can be
/// held until the test lets them go (``holdStores()``), or fail (``failStores(with:)``). Thread-safe.
public final class MockImageCache: ImageCaching {
    public struct Counts: Sendable, Equatable {
        public var memoryLookups = 0
        public var queries = 0
        public var stores = 0

        public init(memoryLookups: Int = 0, queries: Int = 0, stores: Int = 0) {
            self.memoryLookups = memoryLookups
            self.queries = queries
            self.stores = stores
        }
    }

    private struct State {
        var images: [String: Image] = [:]
        var data: [String: Data] = [:]
        var revalidations: [String: ImageRevalidation] = [:]
        var counts = Counts()
        var queriedKeys: [String] = []
        var storedKeys: [String] = []
        var endedKeys: [String] = []
        /// Store completions held back, while stores are held.
        var heldStores: [@Sendable () -> Void]?
        var storeFailure: WebImageError?
    }

    public let looksUpMemoryDuringCall: Bool
    private let state = Locked(State())

    public init(looksUpMemoryDuringCall: Bool) {
        self.looksUpMemoryDuringCall = looksUpMemoryDuringCall
    }

    /// What the cache was asked so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Puts `image` (with `data` and `revalidation`) under `key`, counting no store.
    public func preload(_ image: Image, data: Data? = nil, revalidation: ImageRevalidation? = nil, forKey key: String) {
        state.withLock { state in
            state.images[key] = image
            state.data[key] = data
            state.revalidations[key] = revalidation
        }
    }

    /// The keys queried so far, in order.
    public var queriedKeys: [String] { state.withLock { $0.queriedKeys } }
    /// The keys stored so far, in order.
    public var storedKeys: [String] { state.withLock { $0.storedKeys } }
    /// The keys of the loads that ended (``loadEnded(forKey:)``) so far, in order.
    public var endedKeys: [String] { state.withLock { $0.endedKeys } }

    public func loadEnded(forKey key: String) {
        state.withLock { $0.endedKeys.append(key) }
    }

    /// Holds back the completion of every store from now on, until ``releaseStores()``.
    public func holdStores() {
        state.withLock { $0.heldStores = $0.heldStores ?? [] }
    }

    /// Runs the store completions held back, and holds no more.
    public func releaseStores() {
        let held = state.withLock { state in
            defer { state.heldStores = nil }
            return state.heldStores ?? []
        }
        for completion in held { completion() }
    }

    /// Makes every store from now on fail with `error` (nil: succeed again), storing nothing.
    public func failStores(with error: WebImageError?) {
        state.withLock { $0.storeFailure = error }
    }

    /// The image under `key`, if any.
    public func image(forKey key: String) -> Image? {
        state.withLock { $0.images[key] }
    }

    public func memoryImage(forKey key: String, options: ImageOptions, framesOnDemand: Bool) -> Image? {
        guard looksUpMemoryDuringCall else { return nil }
        return state.withLock { state in
            state.counts.memoryLookups += 1
            return state.images[key]
        }
    }

    @discardableResult
    public func query(
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> CacheQueryToken {
        let (image, data) = state.withLock { state in
            state.counts.queries += 1
            state.queriedKeys.append(key)
            return (state.images[key], state.data[key])
        }
        let latch = CompletionLatch<ImageCacheQueryResult>(callbackQueue: context.callbackQueue ?? .default, handler: completion)
        let result = image.map { ImageCacheQueryResult(image: $0, data: data, cacheType: .memory) } ?? .miss
        DispatchQueue.global().async { latch.finish(.success(cacheType.includesMemory ? result : .miss)) }
        return CacheQueryToken(key: key, latch: latch)
    }

    public func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: (@Sendable (Result<Void, WebImageError>) -> Void)?
    ) {
        let (failure, held): (WebImageError?, Bool) = state.withLock { state in
            state.counts.stores += 1
            state.storedKeys.append(key)
            if let failure = state.storeFailure { return (failure, false) }
            if let image, cacheType.includesMemory { state.images[key] = image }
            if let data { state.data[key] = data }
            guard state.heldStores != nil else { return (nil, false) }
            state.heldStores?.append { completion?(.success(())) }
            return (nil, true)
        }
        if let failure {
            completion?(.failure(failure))
        } else if !held {
            completion?(.success(()))
        }
    }

    public func revalidation(forKey key: String) -> ImageRevalidation? {
        state.withLock { $0.revalidations[key] }
    }

    public func setRevalidation(_ revalidation: ImageRevalidation, forKey key: String, completion: (@Sendable () -> Void)?) {
        state.withLock { $0.revalidations[key] = revalidation }
        completion?()
    }

    public func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        state.withLock { state in
            state.images[key] = nil
            state.data[key] = nil
        }
        completion?()
    }

    public func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        completion(image(forKey: key) == nil ? .none : .memory)
    }

    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        state.withLock { $0.images = [:] }
        completion?()
    }
}
