import Testing
@testable import WebImageCurl

@Suite struct CurlDeliveryWindowTests {
    /// `start` plus `microseconds`.
    private func at(_ start: CurlInstant, _ microseconds: Int64) -> CurlInstant {
        start + microseconds * 1_000
    }

    @Test func aLoneCompletionIsSentAtOnceAndABurstOncePerWindow() {
        let start = CurlInstant.now
        var window = CurlDeliveryWindow(length: .milliseconds(1), now: start)
        #expect(window.length == 1_000_000)
        #expect(window.wait(at: start) == nil, "the first completion goes at once")
        #expect(window.wait(at: at(start, 100)) == 900_000, "one right after it waits for the window")
        #expect(window.wait(at: at(start, 600)) == 400_000)
        #expect(window.wait(at: at(start, 1_000)) == nil, "once the window has passed, it goes")
        #expect(window.wait(at: at(start, 1_100)) == 900_000, "a new window begins with that send")
        #expect(window.wait(at: at(start, 5_000_000)) == nil, "after a quiet spell, at once again")
    }

    @Test func aZeroWindowNeverHolds() {
        let start = CurlInstant.now
        var window = CurlDeliveryWindow(length: .zero, now: start)
        for step in Int64(0)..<5 {
            #expect(window.wait(at: at(start, step)) == nil)
        }
    }

    @Test func instantsCountNanosecondsAndClampDurations() {
        #expect(CurlInstant.nanoseconds(.milliseconds(250)) == 250_000_000)
        #expect(CurlInstant.nanoseconds(.seconds(-2)) == -2_000_000_000)
        #expect(CurlInstant.nanoseconds(.seconds(Int64.max)) == .max, "too long for nanoseconds: the most there is")
        let start = CurlInstant(nanoseconds: 10)
        #expect((start + 5) - start == 5)
        #expect(start + .max == CurlInstant(nanoseconds: .max), "no overflow past the end")
        let earlier = CurlInstant.now
        #expect(CurlInstant.now >= earlier, "the clock does not go back")
    }
}
