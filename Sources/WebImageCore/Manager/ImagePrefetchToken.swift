#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One call of ``ImagePrefetcher/prefetch(urls:options:context:destination:progress:completion:)``: its URLs,
/// its counts, and the way to stop it.
///
/// Thread-safe.
public final class ImagePrefetchToken: Sendable {
    /// The URLs this prefetch was asked for.
    public let urls: [URL]
    private let progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)?
    private let completion: (@Sendable (_ finished: Int, _ skipped: Int) -> Void)?
    private let callbacks: SerialCallbacks
    private let state = Locked(State())

    private struct State {
        var finished = 0
        var skipped = 0
        var isCancelled = false
        /// Cancels the loads running now, by index into ``urls``.
        var running: [Int: @Sendable () -> Void] = [:]
        /// URLs done, by index: a load that ended before its start was recorded is not recorded after.
        var done = Set<Int>()
        /// The finished count last reported to the progress handler.
        var reported = 0
    }

    init(
        urls: [URL],
        callbackQueue: CallbackQueue,
        progress: (@Sendable (Int, Int) -> Void)?,
        completion: (@Sendable (Int, Int) -> Void)?
    ) {
        self.urls = urls
        self.progress = progress
        self.completion = completion
        callbacks = SerialCallbacks(queue: callbackQueue)
    }

    /// Stops this prefetch: its queued URLs are not loaded, its running loads are cancelled, and its progress
    /// handler and completion are not called any more (a call already under way on another thread finishes).
    /// Other prefetches go on. Thread-safe; calling it again does nothing.
    public func cancel() {
        let running = state.withLock { state in
            state.isCancelled = true
            defer { state.running = [:] }
            return Array(state.running.values)
        }
        for cancel in running { cancel() }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// URLs done so far, loaded or not.
    public var finishedCount: Int {
        state.withLock { $0.finished }
    }

    /// URLs that could not be loaded (failed or cancelled) so far.
    public var skippedCount: Int {
        state.withLock { $0.skipped }
    }

    // MARK: Driven by the prefetcher

    /// Records how to cancel the load of URL `index`; false (and nothing recorded) when the token is cancelled.
    func started(_ index: Int, cancel: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            if !state.done.contains(index) { state.running[index] = cancel }
            return true
        }
    }

    /// Counts URL `index` as done and reports: progress after each URL, the completion after the last.
    ///
    /// Reports are queued after the count is taken, so two loads ending at once may queue theirs out of order;
    /// each report therefore delivers every count from the last one reported up to its own, and one that finds
    /// its count already reported delivers nothing. The handler sees 1, 2, ... total in order, then the
    /// completion.
    func finished(_ index: Int, skipped: Bool) {
        let count: Int? = state.withLock { state in
            guard !state.isCancelled, state.done.insert(index).inserted else { return nil }
            state.running[index] = nil
            state.finished += 1
            if skipped { state.skipped += 1 }
            return state.finished
        }
        guard let count else { return }
        let total = urls.count
        callbacks.enqueue { [self] in
            let (from, skipped, cancelled) = state.withLock { state in
                defer { state.reported = max(state.reported, count) }
                return (state.reported + 1, state.skipped, state.isCancelled)
            }
            guard !cancelled, from <= count else { return }
            if let progress {
                for finished in from...count {
                    guard !isCancelled else { return }
                    progress(finished, total)
                }
            }
            if count == total, !isCancelled { completion?(count, skipped) }
        }
    }

    /// Completes a prefetch of no URLs at once.
    func completeEmpty() {
        callbacks.enqueue(duringCall: true) { [self] in completion?(0, 0) }
    }
}
