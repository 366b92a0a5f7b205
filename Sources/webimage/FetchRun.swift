import Foundation
import WebImage
import WebImageCore

/// The output of a fetch: one report per URL as it finishes, a progress bar, and the totals.
///
/// Thread-safe: downloads finish on many threads; printing happens under the lock so lines never interleave.
final class FetchRun: Sendable {
    struct Summary {
        var total: Int
        var succeeded: Int
        var failed: Int
        var bytes: Int
        var seconds: Double

        var text: String {
            let rate = seconds > 0 ? Double(succeeded) / seconds : 0
            return "\(succeeded) of \(total) ok, \(failed) failed, \(bytes) bytes in \(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", rate)) images/s)"
        }

        var json: String {
            "{\"summary\":{\"bytes\":\(bytes),\"failed\":\(failed),\"ok\":\(succeeded),\"seconds\":\(String(format: "%.3f", seconds)),\"total\":\(total)}}"
        }
    }

    private struct State {
        var reporter: Reporter
        var done = 0
        var succeeded = 0
        var bytes = 0
    }

    private let total: Int
    private let showsProgress: Bool
    private let state: Locked<State>

    init(total: Int, json: Bool, showsProgress: Bool) {
        self.total = total
        self.showsProgress = showsProgress
        state = Locked(State(reporter: Reporter(json: json)))
    }

    /// Prints `report` and moves the progress bar.
    func finish(_ report: Report) {
        state.withLock { state in
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
            state.reporter.emit(report) { Self.line($0) }
            state.done += 1
            if report.ok {
                state.succeeded += 1
                state.bytes += report.bytes ?? 0
            }
            if showsProgress { FileHandle.standardError.write(Data(bar(done: state.done).utf8)) }
        }
    }

    func summary(seconds: Double) -> Summary {
        state.withLock { state in
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
            return Summary(total: total, succeeded: state.succeeded, failed: total - state.succeeded, bytes: state.bytes, seconds: seconds)
        }
    }

    private func bar(done: Int) -> String {
        let width = 30
        let filled = total > 0 ? width * done / total : width
        return "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
    }

    /// `URL: disk JPEG 320x240, 12345 bytes, 12.3 ms` (the source, `network` for JSON's `none`, or the status
    /// of a failure).
    static func line(_ report: Report) -> String {
        if let error = report.error {
            return "\(report.file): \(report.status.map(String.init) ?? "-") \(error.code): \(error.message)"
        }
        var text = "\(report.file): \(report.source.map(LoadSource.text) ?? report.status.map(String.init) ?? "-") \(report.format ?? "?") \(report.width ?? 0)x\(report.height ?? 0)"
        if let frames = report.frames, frames > 1 { text += ", \(frames) frames" }
        text += ", \(report.bytes ?? 0) bytes, \(String(format: "%.1f", report.ms ?? 0)) ms"
        if let output = report.output { text += " -> \(output)" }
        return text
    }
}
