import Foundation
import WebImageCore

/// The progress bar of a demo pass: one line on standard output, redrawn in place with `\r` as loads finish.
///
/// Drawn only when standard output is a terminal and the output is text; otherwise (a pipe, a file, `--json`)
/// every call does nothing, so that the output holds plain lines only. Redraws are at most one every
/// ``interval`` (the last one always), so that drawing does not weigh on passes that take microseconds.
///
/// Thread-safe: loads finish on many threads; drawing happens under the lock, so lines never interleave.
final class DemoProgressBar: Sendable {
    /// Whether the bar is drawn at all.
    let isEnabled: Bool
    /// The least time between two redraws.
    static let interval: Duration = .milliseconds(40)
    /// The width of the bar in characters, brackets not included.
    static let width = 30

    private struct State {
        var title = ""
        var total = 0
        var done = 0
        var lastDraw: ContinuousClock.Instant?
    }

    private let state = Locked(State())

    /// A bar that draws when `enabled`; see ``forTerminal(json:)`` for the usual choice.
    init(enabled: Bool) {
        isEnabled = enabled
    }

    /// A bar that draws only when standard output is a terminal and `json` is false.
    static func forTerminal(json: Bool) -> DemoProgressBar {
        DemoProgressBar(enabled: !json && isatty(STDOUT_FILENO) == 1)
    }

    /// Starts a bar for `total` steps, drawn at once.
    func start(_ title: String, total: Int) {
        guard isEnabled else { return }
        state.withLock { state in
            state = State(title: title, total: total, done: 0, lastDraw: nil)
            draw(&state, now: .now)
        }
    }

    /// Counts one step done and redraws when the last redraw is old enough or the bar is full.
    func advance() {
        guard isEnabled else { return }
        state.withLock { state in
            state.done += 1
            let now = ContinuousClock.now
            if state.done >= state.total || state.lastDraw.map({ now - $0 >= Self.interval }) ?? true {
                draw(&state, now: now)
            }
        }
    }

    /// Erases the bar's line, so that the next line printed takes its place.
    func finish() {
        guard isEnabled else { return }
        state.withLock { _ in
            FileHandle.standardOutput.write(Data("\r\u{1b}[K".utf8))
        }
    }

    private func draw(_ state: inout State, now: ContinuousClock.Instant) {
        state.lastDraw = now
        FileHandle.standardOutput.write(Data(Self.line(title: state.title, done: state.done, total: state.total).utf8))
    }

    /// `\r<title> [#########.....] 12/30`, the text of one redraw.
    static func line(title: String, done: Int, total: Int) -> String {
        let filled = total > 0 ? min(width, width * done / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "\r\u{1b}[K\(title) [\(bar)] \(done)/\(total)"
    }
}
