import Testing
@testable import WebImageRedis

/// The breaker's three states, driven by an explicit clock.
@Suite struct RedisCircuitBreakerTests {
    let start = ContinuousClock.now

    @Test func opensAtTheThresholdOfFailuresInARow() {
        let breaker = RedisCircuitBreaker(threshold: 3, openDuration: .seconds(5))
        #expect(breaker.recordFailure(now: start) == nil)
        #expect(breaker.recordFailure(now: start) == nil)
        #expect(breaker.admit(now: start) == .allowed)
        #expect(breaker.recordFailure(now: start) == .opened)
        #expect(breaker.isOpen)
        #expect(breaker.admit(now: start + .seconds(4)) == .refused)
    }

    @Test func aSuccessResetsTheCount() {
        let breaker = RedisCircuitBreaker(threshold: 2, openDuration: .seconds(5))
        #expect(breaker.recordFailure(now: start) == nil)
        #expect(breaker.recordSuccess() == nil)
        #expect(breaker.recordFailure(now: start) == nil, "one failure in a row again")
        #expect(!breaker.isOpen)
    }

    @Test func oneProbeAfterTheOpenPeriodClosesItOnSuccess() {
        let breaker = RedisCircuitBreaker(threshold: 1, openDuration: .seconds(5))
        #expect(breaker.recordFailure(now: start) == .opened)
        let later = start + .seconds(6)
        #expect(breaker.admit(now: later) == .probe)
        #expect(breaker.admit(now: later) == .refused, "one probe at a time")
        #expect(breaker.recordSuccess() == .closed)
        #expect(breaker.admit(now: later) == .allowed)
    }

    @Test func aFailedProbeOpensItForAnotherPeriod() {
        let breaker = RedisCircuitBreaker(threshold: 1, openDuration: .seconds(5))
        _ = breaker.recordFailure(now: start)
        let later = start + .seconds(6)
        #expect(breaker.admit(now: later) == .probe)
        #expect(breaker.recordFailure(now: later) == nil, "still open: no new transition")
        #expect(breaker.admit(now: later + .seconds(4)) == .refused)
        #expect(breaker.admit(now: later + .seconds(6)) == .probe)
    }

    @Test func aProbeThatNeverRanIsGivenBack() {
        let breaker = RedisCircuitBreaker(threshold: 1, openDuration: .seconds(5))
        _ = breaker.recordFailure(now: start)
        #expect(breaker.admit(now: start + .seconds(6)) == .probe)
        breaker.cancelProbe()
        #expect(breaker.admit(now: start + .seconds(6)) == .probe)
    }
}
