import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// ImagePrefetcher against the loopback server: concurrency limit, counts, exactly-once completion, cancellation,
/// and the disk-only destination.
@Suite struct ImagePrefetcherTests {
    /// Records every callback of one token.
    final class Recorder: Sendable {
        let progress = Locked<[(Int, Int)]>([])
        let completions = Locked<[(Int, Int)]>([])

        var progressHandler: @Sendable (Int, Int) -> Void {
            { [self] finished, total in progress.withLock { $0.append((finished, total)) } }
        }
        var completionHandler: @Sendable (Int, Int) -> Void {
            { [self] finished, skipped in completions.withLock { $0.append((finished, skipped)) } }
        }
        var completionCount: Int { completions.withLock { $0.count } }
    }

    @Test func prefetchesEveryURLWithOrderedProgressAndOneCompletion() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            let urls = (0..<12).map { server.url("/image/png/rgb8.png?n=\($0)") } + [server.url("/status/404")]
            let recorder = Recorder()
            prefetcher.prefetch(urls: urls, progress: recorder.progressHandler, completion: recorder.completionHandler)
            #expect(await eventually { recorder.completionCount == 1 })
            try await Task.sleep(for: .milliseconds(50))
            #expect(recorder.completionCount == 1)
            let (finished, skipped) = try #require(recorder.completions.withLock { $0.first })
            #expect(finished == 13)
            #expect(skipped == 1, "the 404 is skipped")
            let progress = recorder.progress.withLock { $0 }
            #expect(progress.map(\.0) == Array(1...13), "progress in order, one report per URL")
            #expect(progress.allSatisfy { $0.1 == 13 })
            #expect(harness.manager.cachedImage(for: urls[0]) != nil)
            #expect(server.totalRequestCount == 13)
            #expect(prefetcher.runningTokenCount == 0)
        }
    }

    @Test func concurrencyStaysWithinTheLimit() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            prefetcher.maxConcurrentPrefetchCount = 2
            let urls = (0..<8).map { server.url("/generated?bytes=100&seed=\($0)&delay_ms=100") }
            let recorder = Recorder()
            prefetcher.prefetch(urls: urls, completion: recorder.completionHandler)
            var peak = 0
            while recorder.completionCount == 0 {
                peak = max(peak, server.openConnectionCount)
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(peak <= 2)
            #expect(recorder.completions.withLock { $0.first.map { $0.0 } } == 8)
        }
    }

    @Test func emptyListCompletesAtOnce() {
        let harness = ManagerHarness()
        let recorder = Recorder()
        let token = ImagePrefetcher(manager: harness.manager).prefetch(urls: [], completion: recorder.completionHandler)
        #expect(recorder.completionCount == 1)
        #expect(recorder.completions.withLock { $0.first.map { [$0.0, $0.1] } } == [0, 0])
        #expect(token.urls.isEmpty)
    }

    @Test func cancelStopsOneTokenAndCallsNothingAfterwards() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            // Slow enough that none of them can finish before the cancel, however busy the machine.
            let slow = (0..<10).map { server.url("/generated?bytes=100&seed=\($0)&delay_ms=1000") }
            let fast = (0..<4).map { server.url("/image/png/rgb8.png?other=\($0)") }
            let cancelled = Recorder()
            let other = Recorder()
            let token = prefetcher.prefetch(urls: slow, progress: cancelled.progressHandler, completion: cancelled.completionHandler)
            prefetcher.prefetch(urls: fast, progress: other.progressHandler, completion: other.completionHandler)
            token.cancel()
            #expect(token.isCancelled)
            #expect(await eventually { other.completionCount == 1 }, "a later prefetch still completes")
            // Longer than the slow responses take: anything not cancelled would have reported by now.
            try await Task.sleep(for: .milliseconds(1300))
            #expect(cancelled.completionCount == 0)
            #expect(cancelled.progress.withLock { $0.count } == 0)
            #expect(server.requestCount(forPath: "/generated") <= 3, "queued URLs of the cancelled token were not requested")
            #expect(await eventually { !harness.manager.isRunning })
        }
    }

    @Test func diskOnlyStoresTheBytesWithoutDecoding() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let prefetcher = ImagePrefetcher(manager: harness.manager)
            let urls = ["/image/jpeg/photo.jpg", "/image/png/rgb8.png", "/etag/gif/quad.gif"].map { server.url($0) }
            let recorder = Recorder()
            prefetcher.prefetch(urls: urls, destination: .diskOnly, completion: recorder.completionHandler)
            #expect(await eventually { recorder.completionCount == 1 })
            #expect(recorder.completions.withLock { $0.first.map { [$0.0, $0.1] } } == [3, 0])
            harness.drainDisk()
            #expect(await harness.cache.diskCache.data(forKey: urls[0].absoluteString) == Fixtures.data("jpeg/photo.jpg"))
            #expect(harness.cache.memoryCache.image(forKey: urls[0].absoluteString) == nil, "nothing was decoded")
            #expect(harness.cache.revalidation(forKey: urls[2].absoluteString)?.entityTag != nil, "validators kept")

            // Again: every URL is already on disk, so nothing is requested.
            let again = Recorder()
            prefetcher.prefetch(urls: urls, destination: .diskOnly, completion: again.completionHandler)
            #expect(await eventually { again.completionCount == 1 })
            #expect(server.totalRequestCount == 3)

            // A later load finds the bytes on disk.
            let loaded = try await harness.load(urls[0]).get()
            #expect(loaded.cacheType == .disk)
            #expect(server.totalRequestCount == 3)
        }
    }
}
