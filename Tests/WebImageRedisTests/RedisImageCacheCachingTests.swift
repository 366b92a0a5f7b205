import Foundation
import Testing
import WebImage
import WebImageTestSupport
@testable import WebImageRedis

/// The Redis tier as an `ImageCaching`: bytes stored and decoded, the disk tier's place in a request, its limits,
/// and a server that fails without failing the caller.
@Suite final class RedisImageCacheCachingTests {
    let server: RedisTestServer
    let photo = Fixtures.data("jpeg/photo.jpg")

    init() throws {
        server = try RedisTestServer()
    }

    func makeCache(_ configure: (inout RedisImageCacheConfig) -> Void = { _ in }) -> RedisImageCache {
        server.makeCache(configure)
    }

    @Test func aStoredImageIsFoundAndDecodedAsTheDiskTier() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: photo, key: "photo", cacheType: .disk)
        let found = try await cache.query(key: "photo", cacheType: .all)
        #expect(found.cacheType == .disk)
        #expect(found.data == photo)
        #expect(found.image?.pixelSize == PixelSize(width: 320, height: 240))
        #expect(cache.memoryImage(forKey: "photo", options: [], framesOnDemand: false) == nil, "no memory tier here")
        #expect(await cache.contains(key: "photo", cacheType: .all) == .disk)
    }

    @Test func theDecodeFollowsTheContext() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: photo, key: "photo", cacheType: .all)
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 64)
        let found = try await cache.query(key: "photo", context: context, cacheType: .disk)
        #expect(found.image.map { max($0.pixelSize.width, $0.pixelSize.height) } == 64)
    }

    @Test func aRequestWithoutTheDiskTierLeavesTheServerAlone() async throws {
        let cache = makeCache()
        try await cache.store(nil, data: photo, key: "photo", cacheType: .memory)
        #expect(try await cache.data(forKey: "photo") == nil, "a memory-only store sends nothing")
        try await cache.store(nil, data: photo, key: "photo", cacheType: .disk)
        #expect(try await cache.query(key: "photo", cacheType: .memory).image == nil)
        #expect(await cache.contains(key: "photo", cacheType: .memory) == .none)
    }

    @Test func anImageWithoutBytesIsEncoded() async throws {
        let cache = makeCache()
        let image = try ImageCoderRegistry.shared.decode(photo, options: ImageDecodeOptions())
        try await cache.store(image, data: nil, key: "encoded", cacheType: .all)
        let stored = try #require(try await cache.data(forKey: "encoded"))
        #expect(ImageFormat.detect(stored) == .jpeg)
        let found = try await cache.query(key: "encoded", cacheType: .all)
        #expect(found.image?.pixelSize == PixelSize(width: 320, height: 240))
    }

    @Test func bytesThatDoNotDecodeAreAMiss() async throws {
        let cache = makeCache()
        try await cache.setData(Data("not an image".utf8), forKey: "junk")
        let found = try await cache.query(key: "junk", cacheType: .all)
        #expect(found.image == nil && found.cacheType == .none)
    }

    @Test func largerThanTheLimitIsNotSent() async throws {
        let cache = makeCache { $0.maxObjectSize = 1000 }
        try await cache.store(nil, data: photo, key: "big", cacheType: .all)
        #expect(await cache.contains(key: "big", cacheType: .all) == .none)
        try await cache.store(nil, data: Data(repeating: 7, count: 1000), key: "fits", cacheType: .all)
        #expect(await cache.contains(key: "fits", cacheType: .all) == .disk)
    }

    @Test func entriesStoredAsATierExpire() async throws {
        let cache = makeCache { $0.timeToLive = .seconds(300) }
        try await cache.store(nil, data: photo, key: "brief", cacheType: .disk)
        let left = try #require(try cache.connectionForTests().timeToLive(cache.redisKey(forKey: "brief")))
        #expect(left > 0 && left <= 300_000)
    }

    @Test func removeAndClearStayInsideThePrefix() async throws {
        let cache = makeCache { $0.keyPrefix = "mine:" }
        let neighbour = makeCache { $0.keyPrefix = "theirs:" }
        for key in ["a", "b*", "c?"] { try await cache.setData(Data(key.utf8), forKey: key) }
        try await neighbour.setData(Data("kept".utf8), forKey: "a")
        await cache.remove(key: "a", cacheType: .all)
        #expect(try await cache.data(forKey: "a") == nil)
        await cache.clear(cacheType: .all)
        #expect(try await cache.data(forKey: "b*") == nil)
        #expect(try await cache.data(forKey: "c?") == nil)
        #expect(try await neighbour.data(forKey: "a") == Data("kept".utf8))
        #expect(try await cache.removeAll() == 0)
    }

    /// No server: look-ups are misses and stores succeed without storing, promptly; after the threshold the
    /// breaker keeps the calls from the network.
    @Test func aServerThatIsDownFailsNoCall() async throws {
        let cache = makeCache {
            $0.breakerThreshold = 2
            $0.connectTimeout = .seconds(60)
            $0.commandTimeout = .seconds(60)
        }
        server.kill()
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<6 {
            let found = try await cache.query(key: "k\(index)", cacheType: .all)
            #expect(found.image == nil)
            try await cache.store(nil, data: photo, key: "k\(index)", cacheType: .all)
            #expect(await cache.diskData(forKey: "k\(index)") == nil)
        }
        #expect(cache.breaker.isOpen)
        // Eighteen calls: not one waited out a 60 s timeout (a loaded machine may delay the test's task itself).
        #expect(clock.now - start < .seconds(120))
    }

    /// The breaker probes after its open period and closes once the server answers again.
    @Test func theBreakerClosesWhenTheServerIsBack() async throws {
        let cache = makeCache {
            $0.breakerThreshold = 1
            $0.breakerOpenDuration = .milliseconds(200)
        }
        server.kill()
        _ = try await cache.query(key: "k", cacheType: .all)
        #expect(cache.breaker.isOpen)
        try server.restart()
        try await Task.sleep(for: .milliseconds(300))
        let breaker = cache.breaker
        for _ in 0..<100 where breaker.isOpen {
            _ = try? await cache.setData(Data("x".utf8), forKey: "probe")
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!breaker.isOpen)
        try await cache.store(nil, data: photo, key: "back", cacheType: .all)
        #expect(try await cache.data(forKey: "back") == photo)
    }
}

extension RedisImageCache {
    /// A connection of its own to the cache's server, for checks behind the cache's back.
    func connectionForTests() throws -> RedisConnection {
        try RedisConnection(options: config.connectionOptions)
    }

    /// The tier's calls as a manager makes them, for async tests.
    func store(_ image: Image?, data: Data?, key: String, context: ImageContext = ImageContext(), cacheType: ImageCacheType) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            store(image, data: data, key: key, options: [], context: context, cacheType: cacheType) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    func query(key: String, context: ImageContext = ImageContext(), cacheType: ImageCacheType) async throws -> ImageCacheQueryResult {
        try await withCheckedThrowingContinuation { continuation in
            query(key: key, options: [], context: context, cacheType: cacheType) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    func contains(key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        await withCheckedContinuation { continuation in
            contains(key: key, cacheType: cacheType) { continuation.resume(returning: $0) }
        }
    }

    func remove(key: String, cacheType: ImageCacheType) async {
        await withCheckedContinuation { continuation in
            remove(key: key, cacheType: cacheType) { continuation.resume() }
        }
    }

    func clear(cacheType: ImageCacheType) async {
        await withCheckedContinuation { continuation in
            clear(cacheType: cacheType) { continuation.resume() }
        }
    }

    func diskData(forKey key: String) async -> Data? {
        await withCheckedContinuation { continuation in
            diskData(forKey: key) { continuation.resume(returning: $0) }
        }
    }

    func removeAll() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            removeAll(callbackQueue: .inline) { result in continuation.resume(with: result.mapError { $0 as any Error }) }
        }
    }
}
