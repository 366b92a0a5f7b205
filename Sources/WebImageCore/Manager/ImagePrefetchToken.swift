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
    private let state: Locked<Lifecycle>
    /// Tells the prefetcher of a cancellation, once.
    private let onCancel: (@Sendable (ImagePrefetchToken) -> Void)?

    init(
        urls: [URL],
        callbackQueue: CallbackQueue,
        progress: (@Sendable (Int, Int) -> Void)?,
        completion: (@Sendable (Int, Int) -> Void)?,
        onCancel: (@Sendable (ImagePrefetchToken) -> Void)? = nil
    ) {
        self.urls = urls
        self.progress = progress
        self.completion = completion
        self.onCancel = onCancel
        callbacks = SerialCallbacks(queue: callbackQueue)
        state = Locked(Lifecycle(total: urls.count))
    }

    /// Stops this prefetch: its queued URLs are not loaded, its running loads are cancelled, and its progress
    /// handler and completion are not called any more (a call already under way on another thread finishes).
    /// Other prefetches go on. Thread-safe; calling it again does nothing.
    public func cancel() {
        let (cancelled, loads) = state.withLock { lifecycle in
            lifecycle.isCancelled ? (false, []) : (true, lifecycle.cancel())
        }
        guard cancelled else { return }
        onCancel?(self)
        for cancel in loads { cancel() }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// URLs done so far, loaded or not.
    public var finishedCount: Int {
        state.withLock { $0.finishedCount }
    }

    /// URLs that could not be loaded (failed or cancelled) so far.
    public var skippedCount: Int {
        state.withLock { $0.skippedCount }
    }

    // MARK: Driven by the prefetcher

    /// Records how to cancel the load of URL `index`; false (and nothing recorded) when the token is cancelled.
    func started(_ index: Int, cancel: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { $0.started(index, cancel: cancel) } == .none
    }

    /// Counts URL `index` as done and reports on the callback queue: progress after each URL, the completion
    /// after the last (see ``Lifecycle/report(upTo:)`` for the order).
    ///
    /// - Returns: Whether the URL was counted: false once cancelled, or when it was counted already.
    @discardableResult
    func finished(_ index: Int, skipped: Bool) -> Bool {
        guard let count = state.withLock({ $0.finished(index, skipped: skipped) }) else { return false }
        reportFinished(upTo: count)
        return true
    }

    /// Queues the reports due for finished count `count` on the callback queue.
    private func reportFinished(upTo count: Int) {
        callbacks.enqueue { [self] in
            guard let report = state.withLock({ $0.report(upTo: count) }) else { return }
            if let progress, let counts = report.progress {
                for finished in counts {
                    guard !isCancelled else { return }
                    progress(finished, urls.count)
                }
            }
            if let (finished, skipped) = report.completion, !isCancelled { completion?(finished, skipped) }
        }
    }

    /// Completes a prefetch of no URLs at once.
    func completeEmpty() {
        callbacks.enqueue(duringCall: true) { [self] in completion?(0, 0) }
    }
}
