import Dispatch
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// A cache written as a user would, with the library's public API only: its queries wait until the test answers them,
/// and it records which queries were cancelled.
final class HeldQueryCache: ImageCaching {
    struct Query: Sendable {
        let key: String
        let promise: CacheQueryPromise
    }

    private let state = Locked<(queries: [Query], cancelledKeys: [String], stored: [String: Image])>(([], [], [:]))

    var queries: [Query] { state.withLock { $0.queries } }
    var cancelledKeys: [String] { state.withLock { $0.cancelledKeys } }

    func query(
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> CacheQueryToken {
        let (token, promise) = CacheQueryToken.makePromise(key: key, context: context, completion: completion)
        promise.onCancel { [self] in state.withLock { $0.cancelledKeys.append(key) } }
        state.withLock { $0.queries.append(Query(key: key, promise: promise)) }
        return token
    }

    func store(
        _ image: Image?, data: Data?, key: String, options: ImageOptions, context: ImageContext,
        cacheType: ImageCacheType, completion: (@Sendable (Result<Void, WebImageError>) -> Void)?
    ) {
        if let image { state.withLock { $0.stored[key] = image } }
        completion?(.success(()))
    }

    func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        state.withLock { $0.stored[key] = nil }
        completion?()
    }

    func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        completion(state.withLock { $0.stored[key] } == nil ? .none : .disk)
    }

    func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        state.withLock { $0.stored = [:] }
        completion?()
    }

    /// The query for `key`, once the manager has made it (waits at most 10 s).
    func query(for key: String) async -> Query? {
        _ = await waitUntil(timeout: .seconds(10)) { [self] in queries.contains { $0.key == key } }
        return queries.last { $0.key == key }
    }
}

@Suite struct CacheQueryPromiseTests {
    let url = URL(string: "https://images.example.com/promise.png")!
    let cache = HeldQueryCache()
    let loader = ScriptedLoader()

    /// What a load delivered, in order.
    final class Delivered: Sendable {
        private let results = Locked<[Result<ImageLoadResult, WebImageError>]>([])
        func append(_ result: Result<ImageLoadResult, WebImageError>) { results.withLock { $0.append(result) } }
        func withLock<T>(_ body: ([Result<ImageLoadResult, WebImageError>]) -> T) -> T { results.withLock { body($0) } }
    }

    /// What queries delivered, in order.
    final class Queries: Sendable {
        private let results = Locked<[Result<ImageCacheQueryResult, WebImageError>]>([])
        var append: @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void {
            { [self] result in results.withLock { $0.append(result) } }
        }
        var count: Int { results.withLock { $0.count } }
        var first: Result<ImageCacheQueryResult, WebImageError>? { results.withLock { $0.first } }
    }

    /// Starts a load and returns the operation and what it delivers.
    func start(_ manager: ImageManager) -> (ImageLoadOperation, Delivered) {
        let delivered = Delivered()
        let operation = manager.loadImage(url: url) { result in delivered.append(result) }
        return (operation, delivered)
    }

    @Test func aHitDeliveredThroughThePromiseCompletesTheLoadWithoutTheLoader() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let (_, delivered) = start(manager)
        let query = try #require(await cache.query(for: url.absoluteString))
        #expect(!query.promise.isFinished)
        let image = solidImage(width: 5)
        #expect(query.promise.succeed(ImageCacheQueryResult(image: image, cacheType: .disk)))
        #expect(await waitUntil(timeout: .seconds(10)) { delivered.withLock { !$0.isEmpty } })
        let loaded = try #require(delivered.withLock { $0.first }).get()
        #expect(loaded.image === image)
        #expect(loaded.cacheType == .disk)
        #expect(loader.all.isEmpty)
        // The outcome is settled: later answers do nothing.
        #expect(query.promise.isFinished)
        #expect(!query.promise.succeed(.miss))
        #expect(!query.promise.fail(WebImageError(.diskIO, "late")))
        #expect(cache.cancelledKeys.isEmpty)
    }

    @Test func aMissDeliveredThroughThePromiseGoesOnToTheLoader() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let (_, delivered) = start(manager)
        let query = try #require(await cache.query(for: url.absoluteString))
        query.promise.succeed(.miss)
        let request = try #require(await loader.request(for: url))
        let fresh = solidImage(width: 6)
        request.succeed(fresh)
        #expect(await waitUntil(timeout: .seconds(10)) { delivered.withLock { !$0.isEmpty } })
        #expect(try delivered.withLock { $0.first }?.get().image === fresh)
    }

    @Test func cancellingTheLoadCancelsTheCachesQueryAndIgnoresItsLateAnswer() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let (operation, delivered) = start(manager)
        let query = try #require(await cache.query(for: url.absoluteString))
        operation.cancel()
        #expect(await waitUntil(timeout: .seconds(10)) { delivered.withLock { !$0.isEmpty } })
        #expect(cache.cancelledKeys == [url.absoluteString], "the cache's cancellation handler ran once")
        #expect(query.promise.isCancelled)
        #expect(query.promise.isFinished)
        #expect(!query.promise.succeed(ImageCacheQueryResult(image: solidImage(width: 2), cacheType: .disk)))
        let results = delivered.withLock { $0 }
        #expect(results.count == 1)
        if case .failure(let error) = results.first {
            #expect(error.code == .cancelled)
        } else {
            Issue.record("the load was not cancelled: \(String(describing: results.first))")
        }
        #expect(loader.all.isEmpty)
    }

    @Test(arguments: [ImageCachesOperationPolicy.serial, .concurrent])
    func behindImageCachesTheCachesQueryIsAnsweredAndCancelledThroughTheComposite(policy: ImageCachesOperationPolicy) async throws {
        let other = HeldQueryCache()
        let caches = ImageCaches([cache, other])
        caches.queryPolicy = policy
        // Answered: a hit from the user's cache is the composite's answer.
        let answers = Queries()
        caches.query(key: "hit", options: [], context: ImageContext(), cacheType: .all, completion: answers.append)
        let image = solidImage(width: 4)
        try #require(await cache.query(for: "hit")).promise.succeed(ImageCacheQueryResult(image: image, cacheType: .disk))
        #expect(await waitUntil(timeout: .seconds(10)) { answers.count == 1 })
        #expect(try answers.first?.get().image === image)

        // Cancelled: the composite's token reaches the promise of the query in flight.
        let token = caches.query(key: "gone", options: [], context: ImageContext(), cacheType: .all) { _ in }
        let query = try #require(await cache.query(for: "gone"))
        token.cancel()
        #expect(query.promise.isCancelled)
        #expect(cache.cancelledKeys == ["gone"])
    }

    @Test func aHandlerAddedAfterCancellationRunsAtOnceAndTheCompletionGetsCancelled() async {
        let answers = Locked<[Result<ImageCacheQueryResult, WebImageError>]>([])
        let (token, promise) = CacheQueryToken.makePromise(key: "k", context: ImageContext()) { result in
            answers.withLock { $0.append(result) }
        }
        token.cancel()
        token.cancel()
        let ran = Locked(0)
        promise.onCancel { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1)
        #expect(promise.isCancelled && token.isCancelled)
        #expect(await waitUntil(timeout: .seconds(10)) { answers.withLock { !$0.isEmpty } })
        #expect(answers.withLock { $0.count } == 1)
        if case .failure(let error) = answers.withLock({ $0.first }) {
            #expect(error.code == .cancelled)
            #expect(error.message.contains("k"))
        } else {
            Issue.record("the completion did not get cancelled")
        }
    }

    @Test func aPromiseReleasedWithoutAnAnswerAnswersAMiss() async {
        let answers = Locked<[Result<ImageCacheQueryResult, WebImageError>]>([])
        var token: CacheQueryToken?
        do {
            let made = CacheQueryToken.makePromise(key: "forgotten", context: ImageContext()) { result in
                answers.withLock { $0.append(result) }
            }
            token = made.token
        }
        #expect(await waitUntil(timeout: .seconds(10)) { answers.withLock { !$0.isEmpty } })
        #expect(answers.withLock { $0.count } == 1)
        #expect((try? answers.withLock { $0.first }?.get())?.cacheType == ImageCacheType.none)
        #expect(token?.isFinished == true)
    }
}
