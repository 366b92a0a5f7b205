#if canImport(Glibc)
import Glibc
#endif

/// A reading of the monotonic clock as whole nanoseconds, for the checks the curl thread makes on every round of its
/// loop (the stall check and the delivery window).
///
/// Plain integer arithmetic: `ContinuousClock.Instant` compares, adds and subtracts through `Duration`'s 128-bit
/// arithmetic and, from outside the standard library, through generic `Comparable` calls, which on a path run tens
/// of thousands of times a second cost more than the checks themselves.
struct CurlInstant: Comparable {
    /// Nanoseconds since an unspecified start (the monotonic clock's).
    let nanoseconds: Int64

    init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Now, on the monotonic clock.
    static var now: CurlInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return CurlInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }

    /// `duration` as whole nanoseconds, clamped to what an `Int64` holds.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflowAgain { return seconds < 0 ? .min : .max }
        return total
    }

    /// `instant` moved by `nanoseconds`, clamped at either end of the clock.
    static func + (instant: CurlInstant, nanoseconds: Int64) -> CurlInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(nanoseconds)
        return CurlInstant(nanoseconds: overflow ? (nanoseconds < 0 ? .min : .max) : sum)
    }

    /// The nanoseconds from `earlier` to `later`.
    static func - (later: CurlInstant, earlier: CurlInstant) -> Int64 {
        later.nanoseconds &- earlier.nanoseconds
    }

    static func < (lhs: CurlInstant, rhs: CurlInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
