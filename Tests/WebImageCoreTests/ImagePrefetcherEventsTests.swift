import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The prefetcher's counts over every running prefetch, against a mock cache and a scripted loader whose
/// requests the test answers one at a time.
@Suite struct ImagePrefetcherEventsTests {
    let loader = ScriptedLoader()
    let prefetcher: ImagePrefetcher
    let log = EventLog()
    let reader: Task<Void, Never>

    final class EventLog: Sendable {
        let events = Locked<[ImagePrefetcherEvent]>([])
    }

    init() {
        let manager = ImageManager(cache: MockImageCache(looksUpMemoryDuringCall: false), loader: loader)
        prefetcher = ImagePrefetcher(manager: manager)
        prefetcher.maxConcurrentPrefetchCount = 10
        let stream = prefetcher.events()
        reader = Task { [log] in
            for await event in stream { log.events.withLock { $0.append(event) } }
        }
    }

    func url(_ name: String) -> URL {
        URL(string: "https://images.example.com/\(name).png")!
    }

    /// Answers the request for `url` (a solid image, or a failure), then waits for the event it causes.
    func answer(_ url: URL, fails: Bool, expectingEvents count: Int) async throws {
        let request = try #require(await loader.request(for: url))
        if fails {
            request.fail(WebImageError(.badImageData, "not an image: \(url)"))
        } else {
            request.succeed(solidImage(width: 3))
        }
        #expect(await waitUntil(timeout: .seconds(10)) { log.events.withLock { $0.count } >= count })
    }

    final class Completions: Sendable {
        let values = Locked<[String: (finished: Int, skipped: Int)]>([:])
        func handler(_ name: String) -> @Sendable (Int, Int) -> Void {
            { [self] finished, skipped in values.withLock { $0[name] = (finished, skipped) } }
        }
    }

    @Test func countsRunOverBothPrefetchesAndTheLastOneEndsTheSpell() async throws {
        defer { reader.cancel() }
        let first = [url("a0"), url("a1")]
        let second = [url("b0"), url("b1"), url("b2")]
        let failing: Set<URL> = [url("a1"), url("b1")]
        let completions = Completions()
        prefetcher.prefetch(urls: first, completion: completions.handler("first"))
        prefetcher.prefetch(urls: second, completion: completions.handler("second"))

        // The first prefetch ends third, while the second still runs: its counts stay in the sums.
        let order = [url("a0"), url("b0"), url("a1"), url("b1"), url("b2")]
        for (index, url) in order.enumerated() {
            try await answer(url, fails: failing.contains(url), expectingEvents: index + 1)
        }
        #expect(await waitUntil(timeout: .seconds(10)) { log.events.withLock { $0.count } == order.count + 1 })

        let total = first.count + second.count
        var expected: [ImagePrefetcherEvent] = []
        var skipped = 0
        for (index, url) in order.enumerated() {
            if failing.contains(url) { skipped += 1 }
            let progress = ImagePrefetchProgress(finishedCount: index + 1, skippedCount: skipped, totalCount: total)
            expected.append(.didPrefetch(url: url, skipped: failing.contains(url), progress: progress))
        }
        expected.append(.didFinish(ImagePrefetchProgress(finishedCount: total, skippedCount: failing.count, totalCount: total)))
        #expect(log.events.withLock { $0 } == expected)

        // Each prefetch's own completion keeps its own counts.
        #expect(await waitUntil(timeout: .seconds(10)) { completions.values.withLock { $0.count } == 2 })
        #expect(completions.values.withLock { $0["first"].map { [$0.finished, $0.skipped] } } == [first.count, 1])
        #expect(completions.values.withLock { $0["second"].map { [$0.finished, $0.skipped] } } == [second.count, 1])
        #expect(prefetcher.runningTokenCount == 0)
    }

    @Test func aCancelledPrefetchLeavesTheTotalAndTheNextSpellCountsAfresh() async throws {
        defer { reader.cancel() }
        let cancelled = prefetcher.prefetch(urls: [url("c0"), url("c1"), url("c2")])
        prefetcher.prefetch(urls: [url("d0")])
        try await answer(url("c0"), fails: false, expectingEvents: 1)
        // The first prefetch's two unfinished URLs leave the total; their loads end cancelled, unreported.
        cancelled.cancel()
        try await answer(url("d0"), fails: false, expectingEvents: 3)

        // A spell of one prefetch, ended by its cancellation.
        let alone = prefetcher.prefetch(urls: [url("e0"), url("e1")])
        try await answer(url("e0"), fails: true, expectingEvents: 4)
        alone.cancel()
        #expect(await waitUntil(timeout: .seconds(10)) { log.events.withLock { $0.count } == 5 })

        let progress = { (finished: Int, skipped: Int, total: Int) in
            ImagePrefetchProgress(finishedCount: finished, skippedCount: skipped, totalCount: total)
        }
        #expect(log.events.withLock { $0 } == [
            .didPrefetch(url: url("c0"), skipped: false, progress: progress(1, 0, 4)),
            .didPrefetch(url: url("d0"), skipped: false, progress: progress(2, 0, 2)),
            .didFinish(progress(2, 0, 2)),
            .didPrefetch(url: url("e0"), skipped: true, progress: progress(1, 1, 2)),
            .didFinish(progress(1, 1, 1)),
        ])
    }

    @Test func aPrefetchOfNoURLsSendsNothing() async throws {
        defer { reader.cancel() }
        let done = Locked(false)
        prefetcher.prefetch(urls: []) { _, _ in done.withLock { $0 = true } }
        #expect(await waitUntil(timeout: .seconds(10)) { done.withLock { $0 } })
        // A spell after it still starts from zero: the empty prefetch left nothing behind.
        prefetcher.prefetch(urls: [url("f0")])
        try await answer(url("f0"), fails: false, expectingEvents: 2)
        #expect(log.events.withLock { $0.map(\.progress) } == [
            ImagePrefetchProgress(finishedCount: 1, skippedCount: 0, totalCount: 1),
            ImagePrefetchProgress(finishedCount: 1, skippedCount: 0, totalCount: 1),
        ])
    }
}

extension ImagePrefetcherEvent {
    var progress: ImagePrefetchProgress {
        switch self {
        case .didPrefetch(_, _, let progress), .didFinish(let progress): progress
        }
    }
}
