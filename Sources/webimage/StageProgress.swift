import Foundation
import WebImageCore

/// The stage a long single job is in, as one line on standard error redrawn in place:
/// `photo.jpg: decoding… 12 s`.
///
/// Converting a 20-megapixel photo takes seconds per stage; the line says which stage runs and, redrawn every
/// second, that it still does. Drawn only when standard error is a terminal and the output is text
/// (``forTerminal(json:)``); otherwise (a pipe, a file, `--json`) every call does nothing, so that the output
/// holds plain lines only. ``finish()`` erases the line, so that the report printed next takes its place.
///
/// Thread-safe: a timer redraws the line while the job's thread moves it on; drawing happens under the lock.
final class StageProgress: Sendable {
    /// Whether the line is drawn at all.
    let isEnabled: Bool
    /// How often the line is redrawn while a stage runs, to move its clock on.
    static let interval: Duration = .seconds(1)

    private struct State {
        var title = ""
        var stage = ""
        var started = ContinuousClock.now
        var timer: (any DispatchSourceTimer)?
    }

    private let state = Locked(State())
    private let write: @Sendable (String) -> Void

    /// A line that draws through `write` when `enabled`; see ``forTerminal(json:)`` for the usual choice.
    init(enabled: Bool, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        isEnabled = enabled
        self.write = write
    }

    /// A line that draws only when standard error is a terminal and `json` is false.
    static func forTerminal(json: Bool) -> StageProgress {
        StageProgress(enabled: isShown(json: json, standardErrorIsTerminal: isatty(STDERR_FILENO) == 1))
    }

    /// Whether the line is shown: on a terminal, with text output.
    static func isShown(json: Bool, standardErrorIsTerminal: Bool) -> Bool {
        !json && standardErrorIsTerminal
    }

    /// Shows `stage` of the job on `title` (a file name), drawn at once and then every ``interval``.
    func stage(_ stage: String, of title: String) {
        guard isEnabled else { return }
        state.withLock { state in
            state.title = title
            state.stage = stage
            state.started = .now
            if state.timer == nil {
                let timer = DispatchSource.makeTimerSource(queue: .global())
                let nanoseconds = Int(Self.interval.components.seconds * 1_000_000_000)
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
                timer.setEventHandler { [weak self] in self?.redraw() }
                timer.resume()
                state.timer = timer
            }
            write(Self.line(title: state.title, stage: state.stage, elapsed: .zero))
        }
    }

    /// Erases the line and stops redrawing it.
    func finish() {
        guard isEnabled else { return }
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            write(Self.erase)
        }
    }

    private func redraw() {
        state.withLock { state in
            guard state.timer != nil else { return }
            write(Self.line(title: state.title, stage: state.stage, elapsed: ContinuousClock.now - state.started))
        }
    }

    /// Moves to the start of the line and clears it.
    static let erase = "\r\u{1b}[K"

    /// `\r<title>: <stage>…`, with the seconds the stage has run once there is at least one: the text of one
    /// redraw.
    static func line(title: String, stage: String, elapsed: Duration) -> String {
        let seconds = elapsed.components.seconds
        return erase + "\(title): \(stage)…" + (seconds >= 1 ? " \(seconds) s" : "")
    }
}
