import Testing
@testable import WebImageCurl

@Suite struct CurlDeliveryWindowTests {
    @Test func aLoneCompletionIsSentAtOnceAndABurstOncePerWindow() {
        let start = ContinuousClock.now
        var window = CurlDeliveryWindow(length: .milliseconds(1), now: start)
        #expect(window.wait(at: start) == nil, "the first completion goes at once")
        #expect(window.wait(at: start + .microseconds(100)) == .microseconds(900), "one right after it waits for the window")
        #expect(window.wait(at: start + .microseconds(600)) == .microseconds(400))
        #expect(window.wait(at: start + .milliseconds(1)) == nil, "once the window has passed, it goes")
        #expect(window.wait(at: start + .microseconds(1_100)) == .microseconds(900), "a new window begins with that send")
        #expect(window.wait(at: start + .seconds(5)) == nil, "after a quiet spell, at once again")
    }

    @Test func aZeroWindowNeverHolds() {
        let start = ContinuousClock.now
        var window = CurlDeliveryWindow(length: .zero, now: start)
        for step in 0..<5 {
            #expect(window.wait(at: start + .microseconds(step)) == nil)
        }
    }
}
