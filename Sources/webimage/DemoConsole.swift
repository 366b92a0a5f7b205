import Foundation

/// Where the demo writes: text for people, or JSON lines for scripts (`--json`), never both.
///
/// In text mode, ``text(_:)`` prints and ``object(_:)`` does nothing; in JSON mode the other way round. Reports
/// (the files written) go through the tool's ``Reporter`` in both modes, so that they look like every other
/// command's. Failures go to standard error in text mode. Not thread-safe: the demo prints from one task.
struct DemoConsole {
    /// Whether the output is JSON lines.
    let json: Bool
    private var reporter: Reporter

    init(json: Bool) {
        self.json = json
        reporter = Reporter(json: json)
    }

    /// Whether every report so far succeeded.
    var allReportsSucceeded: Bool { reporter.allSucceeded }

    /// Prints `line` in text mode.
    func text(_ line: String = "") {
        if !json { print(line) }
    }

    /// Prints `value` as one JSON line in JSON mode, with the keys sorted as ``Reporter`` sorts them.
    func object(_ value: some Encodable) {
        guard json else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(value), let line = String(data: data, encoding: .utf8) {
            print(line)
        }
    }

    /// Prints `report` through the reporter: JSON, or `text` of it, or its error on standard error.
    mutating func report(_ report: Report, text: (Report) -> String) {
        reporter.emit(report, text: text)
    }

    /// Prints a problem on standard error, in both modes.
    func problem(_ message: String) {
        printError("webimage demo: \(message)")
    }
}
