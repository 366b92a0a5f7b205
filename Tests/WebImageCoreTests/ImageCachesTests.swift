import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// A shared, thread-safe list of what the caches were asked.
private final class Log: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    func removeAll() { entries.withLock { $0.removeAll() } }
    /// What the caches were asked, without their answers.
    var all: [String] { entries.withLock { $0 }.filter { !$0.hasSuffix(" answered") } }
    /// What the caches were asked, and when they answered a query.
    var withAnswers: [String] { entries.withLock { $0 } }
}

/// A cache that answers from a dictionary, asynchronously, and records what it was asked.
private final class RecordingCache: ImageCaching, Sendable {
    let name: String
    private let images: Locked<[String: Image]>
    let log: Log

    init(_ name: String, images: [String: Image] = [:], log: Log) {
        self.name = name
        self.images = Locked(images)
        self.log = log
    }

    func has(_ key: String) -> Bool { images.withLock { $0[key] != nil } }

    func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType,
               completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void) -> CacheQueryToken {
        log.append("\(name) query \(key)")
        let latch = CompletionLatch<ImageCacheQueryResult>(callbackQueue: context.callbackQueue ?? .default, handler: completion)
        let image = images.withLock { $0[key] }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [log, name] in
            log.append("\(name) answered")
            latch.finish(.success(ImageCacheQueryResult(image: image, cacheType: image == nil ? .none : .disk)))
        }
        return CacheQueryToken(key: key, latch: latch)
    }

    func store(_ image: Image?, data: Data?, key: String, options: ImageOptions, context: ImageContext,
               cacheType: ImageCacheType, completion: (@Sendable (Result<Void, WebImageError>) -> Void)?) {
        log.append("\(name) store \(key)")
        if let image { images.withLock { $0[key] = image } }
        completion?(.success(()))
    }

    func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        log.append("\(name) remove \(key)")
        images.withLock { $0[key] = nil }
        completion?()
    }

    func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        completion(has(key) ? .disk : .none)
    }

    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        log.append("\(name) clear")
        images.withLock { $0.removeAll() }
        completion?()
    }
}

/// A cache whose query answers a miss only when the test says so, and that records a cancellation.
private final class HeldCache: ImageCaching, Sendable {
    private let latch = Locked<CompletionLatch<ImageCacheQueryResult>?>(nil)

    var wasAsked: Bool { latch.withLock { $0 != nil } }
    var wasCancelled: Bool { latch.withLock { $0?.isCancelled ?? false } }

    func answer() {
        latch.withLock { $0 }?.finish(.success(.miss))
    }

    func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType,
               completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void) -> CacheQueryToken {
        let made = CompletionLatch<ImageCacheQueryResult>(callbackQueue: context.callbackQueue ?? .default, handler: completion)
        latch.withLock { $0 = made }
        return CacheQueryToken(key: key, latch: made)
    }

    func store(_ image: Image?, data: Data?, key: String, options: ImageOptions, context: ImageContext,
               cacheType: ImageCacheType, completion: (@Sendable (Result<Void, WebImageError>) -> Void)?) {
        completion?(.success(()))
    }

    func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) { completion?() }

    func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        completion(.none)
    }

    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) { completion?() }
}

@Suite struct ImageCachesTests {
    private let log = Log()

    private func image() throws -> Image {
        Image(pixels: try PixelBuffer(width: 1, height: 1, color: .red), hasAlpha: false)
    }

    private func query(_ caches: ImageCaches, _ key: String) async -> Result<ImageCacheQueryResult, WebImageError> {
        await withCheckedContinuation { continuation in
            caches.query(key: key, options: [], context: ImageContext(), cacheType: .all) { continuation.resume(returning: $0) }
        }
    }

    @Test func queriesHighestFirstUntilAHit() async throws {
        let stored = try image()
        let local = RecordingCache("local", log: log)
        let shared = RecordingCache("shared", images: ["k": stored], log: log)
        let caches = ImageCaches([local, shared])
        let found = try await query(caches, "k").get()
        #expect(found.image === stored)
        #expect(log.all == ["local query k", "shared query k"])

        log.removeAll()
        let miss = try await query(caches, "absent").get()
        #expect(miss.image == nil && miss.cacheType == .none)
        #expect(log.all.count == 2)
    }

    @Test func storesToTheHighestOnlyAndRemovesFromAll() async throws {
        let local = RecordingCache("local", log: log)
        let shared = RecordingCache("shared", log: log)
        let caches = ImageCaches([local, shared])
        caches.store(try image(), data: nil, key: "k", options: [], context: ImageContext(), cacheType: .all, completion: nil)
        #expect(local.has("k") && !shared.has("k"))
        let found: ImageCacheType = await withCheckedContinuation { continuation in
            caches.contains(key: "k", cacheType: .all) { continuation.resume(returning: $0) }
        }
        #expect(found == .disk)
        await withCheckedContinuation { continuation in caches.remove(key: "k", cacheType: .all) { continuation.resume() } }
        #expect(log.all.filter { $0.contains("remove") }.count == 2)
        await withCheckedContinuation { continuation in caches.clear(cacheType: .all) { continuation.resume() } }
        #expect(log.all.filter { $0.contains("clear") }.count == 2)
    }

    @Test func cancellingStopsTheWalkAndCompletesOnce() async throws {
        let caches = ImageCaches([RecordingCache("a", log: log), RecordingCache("b", log: log), RecordingCache("c", log: log)])
        let calls = Locked<[Result<ImageCacheQueryResult, WebImageError>]>([])
        let token = caches.query(key: "k", options: [], context: ImageContext(), cacheType: .all) { result in
            calls.withLock { $0.append(result) }
        }
        token.cancel()
        try await Task.sleep(for: .milliseconds(60))
        let delivered = calls.withLock { $0 }
        #expect(delivered.count == 1)
        if case .failure(let error) = delivered.first { #expect(error.code == .cancelled) } else { Issue.record("expected cancelled") }
        #expect(log.all == ["a query k"], "the walk stopped at the first cache")
    }

    @Test func emptyComposite() async throws {
        let caches = ImageCaches([])
        #expect(try await query(caches, "k").get().image == nil)
        caches.caches = [RecordingCache("late", images: ["k": try image()], log: log)]
        #expect(try await query(caches, "k").get().image != nil)
    }

    @Test(.timeLimit(.minutes(1))) func aConcurrentQueryAsksEveryCacheAtOnceAndTheFirstImageWins() async throws {
        let stored = try image()
        let held = HeldCache()
        let shared = RecordingCache("shared", images: ["k": stored], log: log)
        let caches = ImageCaches([held, shared])
        caches.queryPolicy = .concurrent
        let found = try await query(caches, "k").get()
        // The hit came while the first cache still held its answer: it did not wait for it, and the query
        // it no longer needs was cancelled.
        #expect(found.image === stored)
        #expect(held.wasAsked)
        #expect(held.wasCancelled)
        held.answer()

        // A miss everywhere waits for every cache.
        log.removeAll()
        let fast = ImageCaches([RecordingCache("a", log: log), RecordingCache("b", log: log)])
        fast.queryPolicy = .concurrent
        #expect(try await query(fast, "absent").get().image == nil)
        #expect(Set(log.withAnswers) == ["a query absent", "b query absent", "a answered", "b answered"])
    }

    @Test func theOnlyPoliciesAskOneCache() async throws {
        let stored = try image()
        let local = RecordingCache("local", images: ["k": stored], log: log)
        let shared = RecordingCache("shared", log: log)
        let caches = ImageCaches([local, shared])
        caches.queryPolicy = .lowestOnly
        #expect(try await query(caches, "k").get().image == nil, "the lowest cache alone was asked, and has nothing")
        #expect(log.all == ["shared query k"])

        log.removeAll()
        caches.queryPolicy = .highestOnly
        #expect(try await query(caches, "k").get().image === stored)
        #expect(log.all == ["local query k"])

        log.removeAll()
        caches.removePolicy = .lowestOnly
        await withCheckedContinuation { continuation in caches.remove(key: "k", cacheType: .all) { continuation.resume() } }
        #expect(log.all == ["shared remove k"])
        #expect(local.has("k"))

        log.removeAll()
        caches.containsPolicy = .lowestOnly
        let found: ImageCacheType = await withCheckedContinuation { continuation in
            caches.contains(key: "k", cacheType: .all) { continuation.resume(returning: $0) }
        }
        #expect(found == .none, "only the lowest cache was asked")
    }

    @Test(arguments: [ImageCachesOperationPolicy.concurrent, .serial])
    func storesWriteThroughEveryCache(policy: ImageCachesOperationPolicy) async throws {
        let local = RecordingCache("local", log: log)
        let shared = RecordingCache("shared", log: log)
        let caches = ImageCaches([local, shared])
        caches.storePolicy = policy
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            caches.store(try? image(), data: nil, key: "k", options: [], context: ImageContext(), cacheType: .all) {
                continuation.resume(returning: $0)
            }
        }
        #expect((try? result.get()) != nil)
        #expect(local.has("k") && shared.has("k"))
        if policy == .serial { #expect(log.all == ["local store k", "shared store k"]) }

        log.removeAll()
        caches.clearPolicy = policy
        await withCheckedContinuation { continuation in caches.clear(cacheType: .all) { continuation.resume() } }
        #expect(!local.has("k") && !shared.has("k"))
        if policy == .serial { #expect(log.all == ["local clear", "shared clear"]) }
    }

    @Test func aFailedStoreIsReportedOnceEveryStoreHasFinished() async throws {
        let failing = MockImageCache(looksUpMemoryDuringCall: false)
        failing.failStores(with: WebImageError(.diskIO, "the disk is full"))
        let other = RecordingCache("other", log: log)
        let caches = ImageCaches([failing, other])
        caches.storePolicy = .concurrent
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            caches.store(try? image(), data: nil, key: "k", options: [], context: ImageContext(), cacheType: .all) {
                continuation.resume(returning: $0)
            }
        }
        if case .failure(let error) = result { #expect(error.code == .diskIO) } else { Issue.record("expected the store to fail") }
        #expect(other.has("k"), "the other cache still stored it")
    }

    @Test func aConcurrentContainsCheckAnswersOnceWithTheFirstCacheThatHasTheKey() async throws {
        let caches = ImageCaches([RecordingCache("a", log: log), RecordingCache("b", images: ["k": try image()], log: log)])
        caches.containsPolicy = .concurrent
        let calls = Locked<[ImageCacheType]>([])
        await withCheckedContinuation { continuation in
            caches.contains(key: "k", cacheType: .all) { found in
                calls.withLock { $0.append(found) }
                continuation.resume()
            }
        }
        let missing: ImageCacheType = await withCheckedContinuation { continuation in
            caches.contains(key: "absent", cacheType: .all) { continuation.resume(returning: $0) }
        }
        #expect(calls.withLock { $0 } == [.disk])
        #expect(missing == .none)
    }
}
