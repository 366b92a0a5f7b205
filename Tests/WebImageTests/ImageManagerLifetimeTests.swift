import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// Cancel storms through the manager, with a tracker proving that no operation, transfer or image outlives them.
@Suite struct ImageManagerLifetimeTests {
    /// Weak references to what a storm made.
    final class LifetimeTracker: Sendable {
        private final class Weak: @unchecked Sendable {
            // Written once, before the box is shared; read afterwards. `weak` loads are atomic.
            weak var object: AnyObject?
            init(_ object: AnyObject) { self.object = object }
        }

        private let boxes = Locked<[Weak]>([])

        func track(_ object: AnyObject) {
            let box = Weak(object)
            boxes.withLock { $0.append(box) }
        }

        var tracked: Int { boxes.withLock { $0.count } }
        var alive: Int { boxes.withLock { $0.filter { $0.object != nil }.count } }
    }

    @Test func nothingOutlivesACancelStorm() async throws {
        try await withTestHTTPServer { server in
            let tracker = LifetimeTracker()
            let total = 300
            let counts = Locked([Int](repeating: 0, count: total))
            do {
                let harness = ManagerHarness()
                // One load that surely succeeds, so that images are among what is tracked however the storm goes.
                tracker.track(try await harness.load(server.url("/image/png/rgb8.png?first")).get().image)
                for index in 0..<total {
                    // Fast images, and slow bodies that are still transferring when cancelled.
                    let url = index % 2 == 0
                        ? server.url("/image/png/rgb8.png?n=\(index % 50)")
                        : server.url("/generated?bytes=2000&seed=\(index % 30)&delay_ms=\(Int.random(in: 0...40))")
                    var context = ImageContext()
                    if index % 7 == 0 { context.thumbnailPixelSize = PixelSize(width: 8, height: 6) }
                    let operation = harness.manager.loadImage(url: url, context: context) { result in
                        if case .success(let loaded) = result { tracker.track(loaded.image) }
                        counts.withLock { $0[index] += 1 }
                    }
                    if let state = operation.stateObject { tracker.track(state) }
                    switch index % 4 {
                    case 0: operation.cancel()
                    case 1: DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0...30))) { operation.cancel() }
                    default: break
                    }
                }
                // Prefetches (one cancelled at once, one left to finish) and streams (one read to its end, one
                // dropped after its first event), whose tokens, operations and continuations must all go too.
                let prefetcher = ImagePrefetcher(manager: harness.manager)
                tracker.track(prefetcher)
                let failed = server.url("/generated?bytes=10&seed=99")
                _ = await harness.load(failed)
                let prefetchDone = Locked(false)
                let kept = prefetcher.prefetch(urls: [failed] + (0..<6).map { server.url("/image/png/rgb8.png?p=\($0)") }) { _, _ in
                    prefetchDone.withLock { $0 = true }
                }
                tracker.track(kept)
                let dropped = prefetcher.prefetch(urls: (0..<6).map { server.url("/generated?bytes=50&seed=\($0)&delay_ms=500") })
                tracker.track(dropped)
                dropped.cancel()
                for try await event in harness.manager.imageLoadEvents(url: server.url("/image/png/rgb8.png?stream")) {
                    if case .result(let loaded) = event { tracker.track(loaded.image) }
                }
                for try await _ in harness.manager.imageLoadEvents(url: server.url("/generated?bytes=50&delay_ms=500")) { break }
                #expect(await eventually { prefetchDone.withLock { $0 } })

                harness.manager.cancelAll()
                #expect(await eventually { counts.withLock { $0.allSatisfy { $0 >= 1 } } })
                #expect(await eventually { !harness.manager.isRunning })
                let counters = try #require(harness.downloader.liveCounters)
                #expect(await eventually { counters.contexts == 0 }, "no transfer is left")
                harness.cache.memoryCache.removeAll()
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(counts.withLock { $0.allSatisfy { $0 == 1 } }, "every load completed exactly once")
            #expect(tracker.tracked > total + 4, "operations, images, prefetchers and tokens were tracked")
            #expect(await eventually { tracker.alive == 0 }, "\(tracker.alive) operations or images are still alive")
        }
    }
}
