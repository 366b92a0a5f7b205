import WebImage
import WebImageCore

/// How one load of a pass ended.
struct DemoLoadOutcome: Sendable {
    /// What was asked for.
    var load: DemoGallery.Load
    /// The manager's final result.
    var result: Result<ImageLoadResult, WebImageError>
    /// From the call to the completion.
    var duration: Duration

    /// The tier that served the image; nil for a failure.
    var tier: ImageCacheType? {
        if case .success(let loaded) = result { loaded.cacheType } else { nil }
    }
}

/// Gathers the outcomes of a pass's loads, which finish on many threads, and hands them over, in the order the
/// loads started, once the last has come.
final class DemoLoadCollector: Sendable {
    private struct State {
        var outcomes: [DemoLoadOutcome?]
        var remaining: Int
    }

    private let state: Locked<State>
    private let done: @Sendable ([DemoLoadOutcome]) -> Void

    /// A collector for `total` loads that calls `done` once, on the thread of the last one (at once for none).
    init(total: Int, done: @escaping @Sendable ([DemoLoadOutcome]) -> Void) {
        state = Locked(State(outcomes: Array(repeating: nil, count: total), remaining: total))
        self.done = done
        if total == 0 { done([]) }
    }

    /// Records the outcome of the load at `index`; the last one calls `done`, outside the lock.
    func finish(_ outcome: DemoLoadOutcome, at index: Int) {
        let complete: [DemoLoadOutcome]? = state.withLock { state in
            guard state.outcomes[index] == nil else { return nil }
            state.outcomes[index] = outcome
            state.remaining -= 1
            return state.remaining == 0 ? state.outcomes.compactMap { $0 } : nil
        }
        if let complete { done(complete) }
    }
}
