import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The load operation's state machine, driven by hand: no manager, no loader, no queue.
@Suite struct ImageLoadOperationLifecycleTests {
    typealias Lifecycle = ImageLoadOperation.Lifecycle

    /// Records what reaches the handlers, in order.
    final class Log: Sendable {
        let entries = Locked<[String]>([])

        var completion: ImageLoadResultHandler {
            { [self] result in
                let entry = switch result {
                case .success(let loaded) where loaded.outcome == .partial: "partial \(loaded.image.width)"
                case .success(let loaded): "result \(loaded.outcome)"
                case .failure(let error): "error \(error.code)"
                }
                entries.withLock { $0.append(entry) }
            }
        }

        var progress: ImageLoadProgressHandler {
            { [self] report in entries.withLock { $0.append("progress \(report.receivedBytes)") } }
        }

        func hook(_ name: String) -> @Sendable () -> Void {
            { [self] in entries.withLock { $0.append(name) } }
        }

        var all: [String] { entries.withLock { $0 } }
    }

    /// A loader token that records its cancellation.
    final class FlagToken: ImageLoadToken {
        private let cancelled = Locked(false)
        func cancel() { cancelled.withLock { $0 = true } }
        var isCancelled: Bool { cancelled.withLock { $0 } }
        var isFinished: Bool { isCancelled }
    }

    private let url = URL(string: "https://example.com/a.png")!
    private var loaded: ImageLoadResult {
        ImageLoadResult(image: solidImage(width: 1), data: nil, cacheType: .none, url: url, outcome: .loaded)
    }

    /// A partial result, told apart by its width.
    private func partial(_ width: Int) -> @Sendable () -> ImageLoadResult {
        { [url] in ImageLoadResult(image: solidImage(width: width), data: nil, cacheType: .none, url: url, outcome: .partial) }
    }

    /// Hands over what waited behind a result that is not final, as the operation does (without its queue): the
    /// end, or each partial in turn.
    private func handOver(_ after: Lifecycle.AfterEarly, _ lifecycle: inout Lifecycle) {
        switch after {
        case .nothing: break
        case .end(let deliver): deliver()
        case .partial(let make, let completion):
            completion(.success(make()))
            handOver(lifecycle.endEarly(), &lifecycle)
        }
    }

    private var cancelled: WebImageError { WebImageError(.cancelled, "cancelled") }

    /// Runs what an action asks, as the operation does (without its queue).
    private func perform(_ action: Lifecycle.EndAction) {
        guard case .end(let deliver, let hooks) = action else { return }
        for hook in hooks { hook() }
        deliver?()
    }

    @Test func theFinalResultComesOnceAndACancelAfterItDoesNothing() {
        let log = Log()
        var lifecycle = Lifecycle(completion: log.completion, progressHandler: nil)
        _ = lifecycle.onCancel(log.hook("hook"))
        #expect(!lifecycle.isEnded)
        perform(lifecycle.finish(.success(loaded)))
        perform(lifecycle.finish(.success(loaded)))
        perform(lifecycle.cancel(with: cancelled))
        #expect(log.all == ["result loaded"])
        #expect(lifecycle.isEnded && !lifecycle.isCancelled)
        let runsAtOnce = lifecycle.onCancel(log.hook("late"))
        #expect(!runsAtOnce, "a hook added after the result never runs")
    }

    @Test func aCancelRunsTheHooksAndWinsOverALaterResult() {
        let log = Log()
        var lifecycle = Lifecycle(completion: log.completion, progressHandler: nil)
        _ = lifecycle.onCancel(log.hook("hook"))
        perform(lifecycle.cancel(with: cancelled))
        perform(lifecycle.finish(.success(loaded)))
        #expect(log.all == ["hook", "error cancelled"])
        #expect(lifecycle.isEnded && lifecycle.isCancelled)
        let runsAtOnce = lifecycle.onCancel(log.hook("late"))
        #expect(runsAtOnce, "a hook added after the cancel runs at once")
    }

    @Test func tokensSetAfterACancelAreCancelledAtOnce() {
        var lifecycle = Lifecycle(completion: { _ in }, progressHandler: nil)
        let request = FlagToken()
        let cancelledAtOnce = lifecycle.setLoaderToken(request)
        #expect(!cancelledAtOnce)
        #expect(lifecycle.loaderToken === request)
        perform(lifecycle.cancel(with: cancelled))
        #expect(request.isCancelled, "the running request is cancelled with the load")
        let laterCancelledAtOnce = lifecycle.setLoaderToken(FlagToken())
        #expect(laterCancelledAtOnce, "one set afterwards is cancelled at once")
        #expect(lifecycle.loaderToken == nil)
    }

    @Test func progressMergesAndTheLastReportComesBeforeTheResult() {
        let log = Log()
        var lifecycle = Lifecycle(completion: log.completion, progressHandler: log.progress)
        let schedules = lifecycle.report(ImageLoadProgress(receivedBytes: 1, expectedBytes: 10))
        #expect(schedules)
        let schedulesAgain = lifecycle.report(ImageLoadProgress(receivedBytes: 5, expectedBytes: 10))
        #expect(schedulesAgain)
        lifecycle.takeProgress()?()
        let leftOver = lifecycle.takeProgress()
        #expect(leftOver == nil, "a hand-over finds nothing left")
        let schedulesLast = lifecycle.report(ImageLoadProgress(receivedBytes: 10, expectedBytes: 10))
        #expect(schedulesLast)
        perform(lifecycle.finish(.success(loaded)))
        let schedulesAfterEnd = lifecycle.report(ImageLoadProgress(receivedBytes: 11, expectedBytes: 10))
        #expect(!schedulesAfterEnd, "nothing after the end")
        #expect(log.all == ["progress 5", "progress 10", "result loaded"])
    }

    @Test func withoutAProgressHandlerNothingIsScheduled() {
        var lifecycle = Lifecycle(completion: { _ in }, progressHandler: nil)
        let schedules = lifecycle.report(ImageLoadProgress(receivedBytes: 1, expectedBytes: 10))
        #expect(!schedules)
    }

    @Test func theEndWaitsForAResultThatIsNotFinalAndAPartialWaitingIsDropped() {
        let log = Log()
        var lifecycle = Lifecycle(completion: log.completion, progressHandler: nil)
        let early = lifecycle.beginPartial(partial(1))
        let second = lifecycle.beginPartial(partial(2))
        #expect(early != nil)
        #expect(second == nil, "a partial while another is on its way waits")
        perform(lifecycle.finish(.success(loaded)))
        #expect(log.all.isEmpty, "the final result waits")
        #expect(lifecycle.isEnded)
        #expect(!lifecycle.showsEarly, "an early result that the end overtook is not shown")
        early?(.success(partial(1)()))
        handOver(lifecycle.endEarly(), &lifecycle)
        #expect(log.all == ["partial 1", "result loaded"], "the end overtook the partial that waited")
        guard case .nothing = lifecycle.endEarly() else { Issue.record("nothing more after the end"); return }
    }

    /// SDWebImage shows every partial image; here partials that come faster than they are handed over skip to the
    /// latest, and the latest is always shown: a body that pauses leaves its last partial image on screen.
    @Test func theLatestPartialThatWaitedFollowsTheOneOnItsWay() {
        let log = Log()
        var lifecycle = Lifecycle(completion: log.completion, progressHandler: nil)
        let first = lifecycle.beginPartial(partial(1))
        #expect(lifecycle.beginPartial(partial(2)) == nil)
        #expect(lifecycle.beginPartial(partial(3)) == nil)
        first?(.success(partial(1)()))
        handOver(lifecycle.endEarly(), &lifecycle)
        #expect(log.all == ["partial 1", "partial 3"], "the latest waited, in place of the one before it")
        #expect(lifecycle.beginPartial(partial(4)) != nil, "nothing is on its way any more")
        perform(lifecycle.finish(.success(loaded)))
        #expect(log.all.count == 2, "the end waits for the fourth")
        handOver(lifecycle.endEarly(), &lifecycle)
        #expect(log.all == ["partial 1", "partial 3", "result loaded"])
    }

    @Test func aCancelWhileAnEarlyResultIsOnItsWayStopsTheWorkAtOnceAndDeliversAfterIt() {
        let log = Log()
        var lifecycle = Lifecycle(completion: log.completion, progressHandler: nil)
        _ = lifecycle.onCancel(log.hook("hook"))
        #expect(lifecycle.beginEarly() != nil)
        perform(lifecycle.cancel(with: cancelled))
        #expect(log.all == ["hook"], "the work stops at once; the completion waits")
        #expect(lifecycle.isCancelled)
        handOver(lifecycle.endEarly(), &lifecycle)
        #expect(log.all == ["hook", "error cancelled"])
        perform(lifecycle.finish(.success(loaded)))
        #expect(log.all.count == 2)
    }

    @Test func theHandlersAreLetGoOnceTheEndIsClaimed() {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        var lifecycle: Lifecycle
        do {
            let captured = Captured()
            weakCaptured = captured
            lifecycle = Lifecycle(completion: { _ in _ = captured }, progressHandler: { _ in _ = captured })
        }
        #expect(weakCaptured != nil)
        let action = lifecycle.cancel(with: cancelled)
        perform(action)
        _ = consume action
        #expect(weakCaptured == nil)
    }
}
