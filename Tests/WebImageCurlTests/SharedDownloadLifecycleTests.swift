import Testing
@testable import WebImageCurl

/// The shared transfer's state machine, driven by hand: no engine, no flight, no socket.
@Suite struct SharedDownloadLifecycleTests {
    typealias Lifecycle = SharedDownload.Lifecycle<String>
    let id = CurlTransferID(rawValue: 7)

    @Test func aTransferAbandonedBeforeItIsNumberedIsCancelledWhenItIs() {
        var lifecycle = Lifecycle(priority: .normal)
        lifecycle.attach("flight")
        #expect(lifecycle.abandon() == .none, "nothing to cancel yet")
        #expect(lifecycle.started(id) == .cancel(id))
        #expect(lifecycle.complete() == "flight")
    }

    @Test func aTransferAbandonedOnceNumberedIsCancelledAtOnce() {
        var lifecycle = Lifecycle(priority: .normal)
        #expect(lifecycle.started(id) == .none)
        #expect(lifecycle.abandon() == .cancel(id))
    }

    @Test func aRaiseBeforeTheNumberIsAppliedOnceTheTransferIsNumbered() {
        var lifecycle = Lifecycle(priority: .low)
        #expect(lifecycle.raise(to: .high) == .none)
        #expect(lifecycle.raise(to: .normal) == .none, "never lowered")
        #expect(lifecycle.started(id) == .raise(id, to: .high))
        #expect(lifecycle.priority == .high)
    }

    @Test func aRaiseOnceNumberedGoesToTheEngineAndOnlyUpwards() {
        var lifecycle = Lifecycle(priority: .low)
        #expect(lifecycle.started(id) == .none)
        #expect(lifecycle.raise(to: .low) == .none)
        #expect(lifecycle.raise(to: .normal) == .raise(id, to: .normal))
        #expect(lifecycle.raise(to: .normal) == .none)
    }

    @Test func aDoneTransferAsksNothingAndLetsGoOfItsFlight() {
        var lifecycle = Lifecycle(priority: .low)
        lifecycle.attach("flight")
        #expect(lifecycle.flight == "flight")
        #expect(lifecycle.started(id) == .none)
        #expect(lifecycle.complete() == "flight")
        #expect(lifecycle.flight == nil)
        #expect(lifecycle.complete() == nil)
        #expect(lifecycle.abandon() == .none)
        #expect(lifecycle.raise(to: .high) == .none)
        #expect(lifecycle.started(CurlTransferID(rawValue: 8)) == .none, "a number after the end changes nothing")
    }
}
