import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTestSupport

/// Cancel storms through the manager, with a tracker proving that no operation, transfer or image outlives them.
@Suite struct ImageManagerLifetimeTests {
    /// Weak references to what a storm made.
    final class LifetimeTracker: Sendable {
        private final class Weak: @unchecked Sendable {
            // Written once, before the box is shared; read afterwards. `weak` loads are atomic.
            weak var object: AnyObject?
            init(_ object: AnyObject) { self.object = object }
        }

        private let boxes = Mutex<[Weak]>([])

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
            let counts = Mutex([Int](repeating: 0, count: total))
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
                    tracker.track(operation)
                    switch index % 4 {
                    case 0: operation.cancel()
                    case 1: DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0...30))) { operation.cancel() }
                    default: break
                    }
                }
                harness.manager.cancelAll()
                #expect(await eventually { counts.withLock { $0.allSatisfy { $0 >= 1 } } })
                #expect(await eventually { !harness.manager.isRunning })
                let counters = try #require(harness.downloader.liveCounters)
                #expect(await eventually { counters.contexts == 0 }, "no transfer is left")
                harness.cache.memoryCache.removeAll()
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(counts.withLock { $0.allSatisfy { $0 == 1 } }, "every load completed exactly once")
            #expect(tracker.tracked > total)
            #expect(await eventually { tracker.alive == 0 }, "\(tracker.alive) operations or images are still alive")
        }
    }
}
