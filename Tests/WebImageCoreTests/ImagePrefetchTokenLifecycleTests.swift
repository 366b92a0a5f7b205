import Testing
@testable import WebImageCore

/// The prefetch token's state machine, driven by hand: no manager, no loads, no queue.
@Suite struct ImagePrefetchTokenLifecycleTests {
    typealias Lifecycle = ImagePrefetchToken.Lifecycle

    @Test func countsEachURLOnceAndCompletesAfterTheLast() {
        var lifecycle = Lifecycle(total: 3)
        #expect(lifecycle.finished(0, skipped: false) == 1)
        #expect(lifecycle.finished(0, skipped: true) == nil, "a URL counts once")
        #expect(lifecycle.finished(2, skipped: true) == 2)
        #expect(lifecycle.report(upTo: 1) == Lifecycle.Report(progress: 1...1))
        #expect(lifecycle.report(upTo: 2) == Lifecycle.Report(progress: 2...2))
        #expect(lifecycle.finished(1, skipped: false) == 3)
        #expect(lifecycle.report(upTo: 3) == Lifecycle.Report(progress: 3...3, completion: (3, 1)))
        #expect(lifecycle.finishedCount == 3)
        #expect(lifecycle.skippedCount == 1)
    }

    @Test func reportsQueuedOutOfOrderStillCountUpInOrder() {
        var lifecycle = Lifecycle(total: 2)
        let first = lifecycle.finished(0, skipped: false)
        let second = lifecycle.finished(1, skipped: false)
        #expect((first, second) == (1, 2))
        // The second load's report reaches the queue first: it reports both counts and the completion.
        #expect(lifecycle.report(upTo: 2) == Lifecycle.Report(progress: 1...2, completion: (2, 0)))
        #expect(lifecycle.report(upTo: 1) == nil, "its count was reported already")
    }

    @Test func cancellingReturnsTheRunningLoadsOnceAndStopsEverything() {
        var lifecycle = Lifecycle(total: 3)
        let cancelled = Locked<[Int]>([])
        #expect(lifecycle.started(0) { cancelled.withLock { $0.append(0) } } == .none)
        #expect(lifecycle.started(1) { cancelled.withLock { $0.append(1) } } == .none)
        // Load 2 ended before its start was recorded: nothing is kept for it.
        #expect(lifecycle.finished(2, skipped: false) == 1)
        #expect(lifecycle.started(2) { cancelled.withLock { $0.append(2) } } == .none)
        #expect(lifecycle.finished(1, skipped: false) == 2)

        let loads = lifecycle.cancel()
        for cancel in loads { cancel() }
        #expect(cancelled.withLock { $0 } == [0], "only the load still running is cancelled")
        #expect(lifecycle.isCancelled)
        #expect(lifecycle.cancel().isEmpty, "a second cancel does nothing")

        #expect(lifecycle.started(0) {} == .cancelLoad, "a load started after the cancel is stopped")
        #expect(lifecycle.finished(0, skipped: false) == nil)
        #expect(lifecycle.report(upTo: 2) == nil, "no report after the cancel")
        #expect(lifecycle.finishedCount == 2, "the counts stay as they were")
    }
}
