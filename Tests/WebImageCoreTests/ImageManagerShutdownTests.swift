import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The manager's shutdown: new loads refused with `shuttingDown` (memory hits too), running loads left alone,
/// and a wait for them bounded by a timeout and the task's cancellation.
@Suite struct ImageManagerShutdownTests {
    let cache = MockImageCache(looksUpMemoryDuringCall: true)
    let loader = ScriptedLoader()
    let manager: ImageManager

    init() {
        manager = ImageManager(cache: cache, loader: loader, coder: MockCoder(magic: "MOCK", format: .png))
    }

    /// The result a callback load delivers during its call, or nil when it has not completed by then.
    private func resultDuringCall(_ url: URL) -> Result<ImageLoadResult, WebImageError>? {
        let result = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
        manager.loadImage(url: url) { delivered in result.withLock { $0 = delivered } }
        return result.withLock { $0 }
    }

    @Test func newLoadsAndMemoryHitsAreRefusedAndNeverListedAsFailed() async throws {
        let cached = URL(string: "https://example.com/cached.png")!
        cache.preload(solidImage(width: 4), forKey: cached.absoluteString)
        #expect(try resultDuringCall(cached)?.get().cacheType == .memory)
        #expect(!manager.isShuttingDown)

        manager.beginShutdown()
        manager.beginShutdown()
        #expect(manager.isShuttingDown)

        let fresh = URL(string: "https://example.com/fresh.png")!
        for url in [cached, fresh] {
            let refused = try #require(resultDuringCall(url), "refused during the call")
            #expect(refused.failureCode == .shuttingDown)
        }
        do throws(WebImageError) {
            _ = try await manager.loadImage(url: cached)
            Issue.record("the async form served a memory hit")
        } catch {
            #expect(error.code == .shuttingDown)
            #expect(error.message.contains("cached.png"))
        }
        do throws(WebImageError) {
            _ = try await manager.loadImageData(url: fresh)
            Issue.record("a data load started")
        } catch {
            #expect(error.code == .shuttingDown)
        }
        #expect(loader.all.isEmpty, "nothing reached the loader")
        #expect(manager.failedURLs.isEmpty)
        #expect(!manager.isRunning)
    }

    @Test func runningLoadsGoOnAndTheWaitEndsWithTheLast() async throws {
        let url = URL(string: "https://example.com/slow.png")!
        let result = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
        manager.loadImage(url: url) { delivered in result.withLock { $0 = delivered } }
        let request = try #require(await loader.request(for: url))
        #expect(manager.isRunning)

        manager.beginShutdown()
        #expect(await manager.waitForRunningLoads(timeout: .milliseconds(20)) == false, "the load still runs")

        let manager = manager
        let waiting = Task { await manager.waitForRunningLoads(timeout: .seconds(600)) }
        request.succeed(solidImage(width: 6))
        #expect(await waiting.value, "the wait ends when the last load does")
        #expect(await waitUntil(timeout: .seconds(10)) { result.withLock { $0 } != nil })
        #expect(try result.withLock { $0 }?.get().image.width == 6)
        #expect(!manager.isRunning)
        #expect(await manager.waitForRunningLoads(timeout: .seconds(600)), "nothing runs: at once")
    }

    @Test func aCancelledWaitEndsAtOnceAndLeavesTheLoadsAlone() async throws {
        let url = URL(string: "https://example.com/stalled.png")!
        let result = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
        manager.loadImage(url: url) { delivered in result.withLock { $0 = delivered } }
        let request = try #require(await loader.request(for: url))

        let manager = manager
        let started = Task { await manager.waitForRunningLoads(timeout: .seconds(600)) }
        started.cancel()
        #expect(await started.value == false)
        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await manager.waitForRunningLoads(timeout: .seconds(600))
        }
        #expect(await alreadyCancelled.value == false)
        #expect(manager.isRunning && !request.isCancelled)

        manager.cancelAll()
        #expect(await waitUntil(timeout: .seconds(10)) { result.withLock { $0 } != nil })
        #expect(result.withLock { $0 }?.failureCode == .cancelled)
        #expect(request.isCancelled)
        #expect(manager.failedURLs.isEmpty)
    }
}
