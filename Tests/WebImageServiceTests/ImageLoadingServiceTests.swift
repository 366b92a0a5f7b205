import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import WebImageCodecs
import WebImageCore
import WebImageCurl
import WebImageService
import WebImageTestSupport

/// ImageLoadingService against the loopback server: graceful shutdown lets running loads finish, refuses new ones,
/// cancels what outlives the grace period, flushes the disk cache and invalidates the downloader.
@Suite final class ImageLoadingServiceTests {
    let directory: URL
    let cache: ImageCache
    let downloader: ImageDownloader
    let manager: ImageManager

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID().uuidString)")
        let registry = ImageCoderRegistry.makeDefault()
        cache = ImageCache(namespace: "service", root: directory, coder: registry)
        // Timeouts longer than any wait of the tests: their held responses send nothing until the test says so,
        // which on a loaded machine may take longer than the default stall timeout.
        var config = ImageDownloaderConfig()
        config.stallTimeout = 120
        config.downloadTimeout = 120
        downloader = ImageDownloader(config: config, coder: registry)
        manager = ImageManager(cache: cache, loader: ImageLoaders([DataURLImageLoader(coder: registry), downloader]), coder: registry)
    }

    deinit {
        downloader.invalidate()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The file names a cache of its own finds in the directory: what is on disk, not in this cache's memory.
    private func entriesOnDisk() -> Set<String> {
        Set(DiskCache(directory: cache.diskCache.directory).entryNames())
    }

    private func gray8() throws -> Image {
        try ImageCoderRegistry.shared.decode(Fixtures.data("png/gray8.png"))
    }

    /// Loads `url` and keeps its final result in `results`.
    private func startLoad(_ url: URL, into results: LoadResults) {
        manager.loadImage(url: url) { result in results.record(result, for: url) }
    }

    /// What the downloader answers a new request with.
    private func downloaderAnswer(_ url: URL) async -> Result<DownloadedImageData, WebImageError> {
        await withCheckedContinuation { continuation in
            downloader.downloadData(url: url) { continuation.resume(returning: $0) }
        }
    }

    @Test func findsTheCacheAndTheDownloaderBehindTheManager() {
        let service = ImageLoadingService(manager: manager)
        #expect(service.cache === cache)
        #expect(service.downloader === downloader)
        #expect(service.gracePeriod == .seconds(10))
        #expect(ImageLoadingService.defaultGracePeriod == .seconds(10))

        let bare = ImageLoadingService(manager: ImageManager(cache: MockImageCache(looksUpMemoryDuringCall: true), loader: ScriptedLoader()), gracePeriod: .zero)
        #expect(bare.cache == nil && bare.downloader == nil)
    }

    @Test func gracefulShutdownFinishesRunningLoadsRefusesNewOnesAndFlushes() async throws {
        let held = HeldResponses()
        let routes = TestHTTPRoutes.standard()
        held.register(on: routes)
        try await withTestHTTPServer(routes: routes) { server in
            let service = ImageLoadingService(manager: manager, gracePeriod: .seconds(600))
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], logger: Logger(label: "test")))
            let finished = Locked(false)
            let groupTask = Task {
                try await group.run()
                finished.withLock { $0 = true }
            }

            // Two loads in flight, each until the test answers it.
            let slow = [server.url("/held/a.png"), server.url("/held/b.png")]
            let results = LoadResults()
            for url in slow { startLoad(url, into: results) }
            #expect(await held.waitForRequests(["a.png", "b.png"]))

            // An image the memory tier would serve during the call.
            let cached = server.url("/image/png/gray8.png")
            cache.memoryCache.setImage(try gray8(), forKey: cached.absoluteString)
            #expect(manager.cachedImage(for: cached) != nil)

            // A store still queued when shutdown begins: the IO queue is held until the test lets it go.
            let gate = DispatchSemaphore(value: 0)
            cache.diskCache.perform { _ in gate.wait() }
            cache.store(try gray8(), data: nil, key: "pending", cacheType: .disk, completion: nil)

            await group.triggerGracefulShutdown()
            let manager = manager
            #expect(await waitUntil(timeout: .seconds(30)) { manager.isShuttingDown })

            // New loads are refused during their call, memory hits included.
            let refusals = Locked<[WebImageError]>([])
            for url in [server.url("/image/png/gray8.png?new"), cached] {
                let operation = manager.loadImage(url: url) { result in
                    if case .failure(let error) = result { refusals.withLock { $0.append(error) } }
                }
                #expect(operation.isFinished)
            }
            #expect(refusals.withLock { $0.map(\.code) } == [.shuttingDown, .shuttingDown])
            #expect(refusals.withLock { $0.first?.message.contains("gray8.png?new") ?? false })
            do throws(WebImageError) {
                _ = try await manager.loadImage(url: cached)
                Issue.record("a memory hit was served during shutdown")
            } catch {
                #expect(error.code == .shuttingDown)
            }
            do throws(WebImageError) {
                _ = try await manager.loadImageData(url: server.url("/image/png/gray8.png?data"))
                Issue.record("a data load started during shutdown")
            } catch {
                #expect(error.code == .shuttingDown)
            }
            #expect(manager.failedURLs.isEmpty, "refusals are not the URLs' fault")

            // The loads running when shutdown began finish within the grace period.
            for name in ["a.png", "b.png"] { held.release(name) }
            #expect(await waitUntil(timeout: .seconds(30)) { results.count == 2 })
            for url in slow {
                let loaded = try #require(try results[url]?.get())
                #expect(loaded.outcome == .loaded && loaded.cacheType == .none)
            }

            // The service flushes: it cannot end while the IO queue is held.
            #expect(!finished.withLock { $0 })
            gate.signal()
            #expect(await waitUntil(timeout: .seconds(30)) { finished.withLock { $0 } })
            _ = try await groupTask.value

            let onDisk = entriesOnDisk()
            for key in slow.map(\.absoluteString) + ["pending"] {
                #expect(onDisk.contains(DiskCache.fileName(forKey: key)), "\(key) is on disk")
            }
            #expect(await downloaderAnswer(cached).failureCode == .cancelled, "the downloader is invalidated")
            #expect(!manager.isRunning)
        }
    }

    @Test func loadsThatOutliveTheGracePeriodAreCancelled() async throws {
        let held = HeldResponses()
        let routes = TestHTTPRoutes.standard()
        held.register(on: routes)
        try await withTestHTTPServer(routes: routes) { server in
            let grace = Duration.milliseconds(300)
            let service = ImageLoadingService(manager: manager, gracePeriod: grace)
            let stalled = server.url("/held/never.png")
            let results = LoadResults()
            startLoad(stalled, into: results)
            #expect(await held.waitForRequests(["never.png"]))

            try await testGracefulShutdown { trigger in
                let finished = Locked<Duration?>(nil)
                let clock = ContinuousClock()
                let start = clock.now
                let run = Task {
                    await service.run()
                    finished.withLock { $0 = clock.now - start }
                }
                trigger.triggerGracefulShutdown()
                #expect(await waitUntil(timeout: .seconds(30)) { finished.withLock { $0 } != nil })
                await run.value
                let took = try #require(finished.withLock { $0 })
                #expect(took >= grace, "the load had its grace period (\(took))")
            }
            let result = try #require(results[stalled])
            #expect(result.failureCode == .cancelled)
            #expect(manager.failedURLs.isEmpty)
            #expect(!manager.isRunning)
            #expect(await downloaderAnswer(server.url("/image/png/gray8.png")).failureCode == .cancelled)
        }
    }

    @Test func cancellationStopsAtOnceWithoutTheGracePeriod() async throws {
        let held = HeldResponses()
        let routes = TestHTTPRoutes.standard()
        held.register(on: routes)
        try await withTestHTTPServer(routes: routes) { server in
            // A grace period no test would wait for: the run must end without it.
            let service = ImageLoadingService(manager: manager, gracePeriod: .seconds(3600))
            let stalled = server.url("/held/never.png")
            let results = LoadResults()
            startLoad(stalled, into: results)
            #expect(await held.waitForRequests(["never.png"]))
            cache.store(try gray8(), data: nil, key: "pending", cacheType: .disk, completion: nil)

            let finished = Locked(false)
            let run = Task {
                await service.run()
                finished.withLock { $0 = true }
            }
            run.cancel()
            #expect(await waitUntil(timeout: .seconds(30)) { finished.withLock { $0 } })

            #expect(manager.isShuttingDown)
            #expect(results[stalled]?.failureCode == .cancelled)
            #expect(entriesOnDisk().contains(DiskCache.fileName(forKey: "pending")))
            #expect(await downloaderAnswer(server.url("/image/png/gray8.png")).failureCode == .cancelled)
            let refused = await withCheckedContinuation { continuation in
                manager.loadImage(url: server.url("/image/png/gray8.png")) { continuation.resume(returning: $0) }
            }
            #expect(refused.failureCode == .shuttingDown)
        }
    }
}

extension Result where Failure == WebImageError {
    /// The failure's code, or nil on success.
    var failureCode: WebImageError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
