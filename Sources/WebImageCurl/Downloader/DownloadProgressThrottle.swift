/// Decides which progress reports of one transfer go out, as SDWebImage's `minimumProgressInterval`: a report
/// when the received fraction has grown by at least the interval since the last report; every report when
/// the interval is 0 or the length is unknown; always the last one.
///
/// Not thread-safe: a value owned by one transfer.
package struct DownloadProgressThrottle {
    private let interval: Double
    private var lastFraction: Double = -1

    /// - Parameter interval: The least growth of the fraction between reports, clamped to 0...1.
    package init(interval: Double) {
        self.interval = min(1, max(0, interval))
    }

    /// Whether to report `received` of `expected` bytes (`expected` -1 when unknown); records the report.
    package mutating func shouldReport(received: Int64, expected: Int64, isFinal: Bool = false) -> Bool {
        guard !isFinal, interval > 0, expected > 0 else { return true }
        let fraction = min(1, Double(received) / Double(expected))
        guard lastFraction < 0 || fraction - lastFraction >= interval else { return false }
        lastFraction = fraction
        return true
    }
}
