import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

// Shutting down: refusing new loads, then waiting for the running ones. `WebImageService` runs these steps for
// swift-service-lifecycle; a server without it calls them itself.
extension ImageManager {
    /// Refuses every load started from now on with `shuttingDown` (3015); the loads already running go on.
    ///
    /// ```swift
    /// manager.beginShutdown()
    /// if await !manager.waitForRunningLoads(timeout: .seconds(10)) { manager.cancelAll() }
    /// ```
    ///
    /// Image loads (callback and async forms, the prefetcher's) and data loads are refused during their call, on
    /// the caller's thread with the default callback queue; memory hits are refused too, so that a caller never
    /// sees some URLs served and others refused. A refusal is never put on the failed list and never retried. A
    /// load running already completes as it would have, except where it needs a new load of its own (a data load
    /// whose image is not yet loading). There is no way back: make a new manager to load again.
    ///
    /// Thread-safe; returns at once. Calling it again does nothing.
    public func beginShutdown() {
        running.withLock { $0.refuseNewLoads() }
        shutdownBegun.store(true, ordering: .releasing)
    }

    /// Whether ``beginShutdown()`` was called.
    public var isShuttingDown: Bool {
        shutdownBegun.load(ordering: .acquiring)
    }

    /// Waits until no image load runs, or `timeout` passes, or the task is cancelled.
    ///
    /// ```swift
    /// manager.beginShutdown()
    /// let drained = await manager.waitForRunningLoads(timeout: .seconds(10))
    /// manager.cancelAll()   // the loads still running, if any, complete with `cancelled`
    /// ```
    ///
    /// Counts the loads ``isRunning`` counts: the image loads that had not completed during their call, including
    /// those of the prefetcher and those data loads make; data loads served from disk or memory are not waited
    /// for. Without ``beginShutdown()`` first, a load may start right after the call returns.
    ///
    /// Suspends without blocking a thread; the loads are left alone whatever the outcome (cancel them with
    /// ``cancelAll()``).
    ///
    /// - Returns: True when no load runs; false when `timeout` passed, or the task was cancelled, first.
    public func waitForRunningLoads(timeout: Duration) async -> Bool {
        guard !Task.isCancelled else { return !isRunning }
        let wait = IdleWait()
        let waiterID = Locked<UInt64?>(nil)
        let idle = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wait.install(continuation)
                let id = running.withLock { $0.addIdleWaiter { wait.settle(idle: true) } }
                guard let id else { return wait.settle(idle: true) }
                waiterID.withLock { $0 = id }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [weak wait] in
                    wait?.settle(idle: false)
                }
            }
        } onCancel: {
            wait.settle(idle: false)
        }
        if !idle, let id = waiterID.withLock({ $0 }) {
            running.withLock { $0.removeIdleWaiter(id) }
        }
        return idle
    }

    /// The `shuttingDown` error for a load of `url` once ``beginShutdown()`` was called, else nil: one atomic load.
    @inline(__always)
    func shutdownRefusal(for url: URL) -> WebImageError? {
        guard shutdownBegun.load(ordering: .relaxed) else { return nil }
        return shutdownError(for: url)
    }

    /// The `shuttingDown` error for a load of `url`.
    func shutdownError(for url: URL) -> WebImageError {
        WebImageError(.shuttingDown, "the manager is shutting down and refused the load of \(url.absoluteString)")
    }
}

/// One wait for a manager's loads to end: resumed once, by the first of the last load's end, the timeout and the
/// task's cancellation.
private final class IdleWait: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Bool, Never>?, outcome: Bool?)>((nil, nil))

    /// Keeps `continuation`, or resumes it at once when the outcome is known already.
    func install(_ continuation: CheckedContinuation<Bool, Never>) {
        let outcome: Bool? = state.withLock { state in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(returning: outcome) }
    }

    /// Settles the wait with `idle` unless it is settled already.
    func settle(idle: Bool) {
        let continuation: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = idle
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: idle)
    }
}

extension Duration {
    /// This duration for `DispatchTime` arithmetic, in nanoseconds, at least 0 and at most about 292 years.
    fileprivate var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .nanoseconds(Int.max) }
        return .nanoseconds(Int(clamping: nanoseconds &+ attoseconds / 1_000_000_000))
    }
}
