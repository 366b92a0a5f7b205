import WebImageCore

/// A ``Reporter`` that many threads may print through: lines never interleave.
final class SharedReporter: Sendable {
    private let reporter: Locked<Reporter>

    init(json: Bool) {
        reporter = Locked(Reporter(json: json))
    }

    /// Whether every report emitted so far succeeded.
    var allSucceeded: Bool {
        reporter.withLock { $0.allSucceeded }
    }

    func emit(_ report: Report, text: (Report) -> String) {
        reporter.withLock { $0.emit(report, text: text) }
    }
}
