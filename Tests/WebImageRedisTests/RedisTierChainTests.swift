import Foundation
import Testing
import WebImage
import WebImageTestSupport
@testable import WebImageRedis

/// A manager over the chain memory → local disk → Redis → origin, against a loopback origin and a real Redis.
@Suite final class RedisTierChainTests {
    let redis: RedisTestServer
    let root: URL

    init() throws {
        redis = try RedisTestServer()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("redis-chain-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func makeShared(_ configure: (inout RedisImageCacheConfig) -> Void = { _ in }) -> RedisImageCache {
        redis.makeCache(configure)
    }

    /// A manager whose local cache lives in `folder` under the test's root, in front of `shared`.
    func makeManager(folder: String, shared: RedisImageCache) -> (ImageManager, ImageCache, ImageDownloader) {
        let registry = ImageCoderRegistry.shared
        let local = ImageCache(namespace: "chain", root: root.appendingPathComponent(folder), coder: registry)
        let downloader = ImageDownloader(config: ImageDownloaderConfig(), coder: registry)
        let manager = ImageManager(cache: ImageCaches(tiers: [local, shared]), loader: downloader, coder: registry)
        return (manager, local, downloader)
    }

    @Test func aHitInEachTier() async throws {
        try await withTestHTTPServer { origin in
            let url = origin.url("/image/jpeg/photo.jpg")
            let shared = makeShared()
            let (first, _, firstDownloader) = makeManager(folder: "one", shared: shared)
            defer { firstDownloader.invalidate() }
            #expect(try await first.loadImage(url: url, options: .waitStoreCache).cacheType == .none, "from the origin")
            #expect(try await first.loadImage(url: url).cacheType == .memory)

            // Another manager on the same folder: the local disk answers.
            let (sameFolder, _, sameDownloader) = makeManager(folder: "one", shared: shared)
            defer { sameDownloader.invalidate() }
            #expect(try await sameFolder.loadImage(url: url).cacheType == .disk)

            // A manager with an empty folder, as another machine: Redis answers, and fills its local tiers.
            let (other, otherLocal, otherDownloader) = makeManager(folder: "two", shared: shared)
            defer { otherDownloader.invalidate() }
            let fromRedis = try await other.loadImage(url: url)
            #expect(fromRedis.cacheType == .disk)
            #expect(fromRedis.image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(origin.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)
            let disk = otherLocal.diskCache
            let key = url.absoluteString
            #expect(await waitUntil(timeout: .seconds(10)) { disk.data(forKey: key) == Fixtures.data("jpeg/photo.jpg") })
            #expect(try await other.loadImage(url: url).cacheType == .memory)
        }
    }

    /// Variants as bytes: made once, shared through Redis, served by another manager without a decode.
    @Test func aVariantMadeOnceIsServedByAnotherProcess() async throws {
        try await withTestHTTPServer { origin in
            let url = origin.url("/image/jpeg/photo.jpg")
            let shared = makeShared()
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(square: 64)
            context.encodedFormat = .webp
            let (first, _, firstDownloader) = makeManager(folder: "one", shared: shared)
            defer { firstDownloader.invalidate() }
            let made = try await first.loadImageData(url: url, options: .waitStoreCache, context: context)
            let (other, otherLocal, otherDownloader) = makeManager(folder: "two", shared: shared)
            defer { otherDownloader.invalidate() }
            let served = try await other.loadImageData(url: url, context: context)
            #expect(served.data == made.data && served.format == .webp)
            #expect(served.cacheType == .disk)
            #expect(origin.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)
            let disk = otherLocal.diskCache
            let key = made.key
            #expect(await waitUntil(timeout: .seconds(10)) { disk.data(forKey: key) == made.data }, "the local disk was filled")
        }
    }

    /// A load that fails passes its claim: another process waiting on the key loads for itself at once, not when
    /// the claim expires.
    @Test func aFailedLoadLetsTheOtherProcessGoAtOnce() async throws {
        try await withTestHTTPServer { origin in
            let url = origin.url("/slow-headers?delay_ms=500")
            let (first, _, firstDownloader) = makeManager(folder: "one", shared: makeShared { $0.claimTimeToLive = .seconds(600) })
            defer { firstDownloader.invalidate() }
            let (second, _, secondDownloader) = makeManager(folder: "two", shared: makeShared { $0.maxFleetWait = .seconds(600) })
            defer { secondDownloader.invalidate() }
            let firstDone = Locked(false)
            first.loadImageData(url: url) { _ in firstDone.withLock { $0 = true } }
            #expect(await waitUntil(timeout: .seconds(10)) { origin.requestCount(forPath: "/slow-headers") == 1 })
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: WebImageError.self) { try await second.loadImageData(url: url) }
            #expect(firstDone.withLock { $0 })
            #expect(clock.now - started < .seconds(120), "well before the claim's 600 s")
            #expect(origin.requestCount(forPath: "/slow-headers") == 2, "the second process loaded for itself")
        }
    }

    /// Redis dies in the middle of a run and comes back: no load fails, and once the breaker closes the stores
    /// reach Redis again.
    @Test func noLoadFailsWhileRedisIsKilledAndRestarted() async throws {
        try await withTestHTTPServer { origin in
            let shared = makeShared {
                $0.breakerThreshold = 2
                $0.breakerOpenDuration = .milliseconds(200)
            }
            let (manager, _, downloader) = makeManager(folder: "one", shared: shared)
            defer { downloader.invalidate() }
            var failures: [String] = []
            for index in 0..<30 {
                if index == 10 { redis.kill() }
                if index == 20 { try redis.restart() }
                let url = origin.url("/image/png/palette4.png?n=\(index)")
                do {
                    _ = try await manager.loadImageData(url: url, options: .waitStoreCache)
                } catch {
                    failures.append("\(index): \(error)")
                }
            }
            #expect(failures.isEmpty)
            // After the restart the breaker probes, closes, and the stores go through again.
            let breaker = shared.breaker
            var stored = false
            for attempt in 0..<50 where !stored {
                let url = origin.url("/image/png/palette4.png?after=\(attempt)")
                _ = try await manager.loadImageData(url: url, options: .waitStoreCache)
                let found = try? await shared.data(forKey: url.absoluteString)
                stored = !breaker.isOpen && found != nil
                if !stored { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(stored)
            #expect(try await shared.data(forKey: origin.url("/image/png/palette4.png?n=5").absoluteString) == nil, "the restarted server kept nothing")
        }
    }
}
