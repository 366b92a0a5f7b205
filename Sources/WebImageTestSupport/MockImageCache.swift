#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import WebImageCore

/// An ``ImageCaching`` over a dictionary, for tests of what sits above a cache: it holds images by key in one
/// tier, answers every query later on the context's callback queue, and counts what it was asked.
///
/// With `looksUpMemoryDuringCall` it also answers ``memoryImage(forKey:options:framesOnDemand:)`` (the manager's
/// memory hit); without, it keeps the protocol's default, as a cache with no synchronous tier does. Thread-safe.
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
        var counts = Counts()
    }

    public let looksUpMemoryDuringCall: Bool
    private let state = Locked(State())

    public init(looksUpMemoryDuringCall: Bool) {
        self.looksUpMemoryDuringCall = looksUpMemoryDuringCall
    }

    /// What the cache was asked so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Puts `image` under `key`, counting no store.
    public func preload(_ image: Image, forKey key: String) {
        state.withLock { $0.images[key] = image }
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
        let image = state.withLock { state in
            state.counts.queries += 1
            return state.images[key]
        }
        let latch = CompletionLatch<ImageCacheQueryResult>(callbackQueue: context.callbackQueue ?? .default, handler: completion)
        let result = image.map { ImageCacheQueryResult(image: $0, cacheType: .memory) } ?? .miss
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
        state.withLock { state in
            state.counts.stores += 1
            if let image, cacheType.includesMemory { state.images[key] = image }
        }
        completion?(.success(()))
    }

    public func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        state.withLock { _ = $0.images.removeValue(forKey: key) }
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
