import Synchronization

/// Delivers one result to one completion handler exactly once, whatever the race between finishing and
/// cancelling: the first of ``finish(_:duringCall:onFreeGlobalThread:)`` and ``cancel()`` wins, the other does
/// nothing.
///
/// The handler is released as soon as it has been taken, so nothing it captures outlives the delivery.
///
/// The outcome is decided by one atomic compare-and-exchange, and nothing the latch keeps depends on `Success`
/// except the handler, which is a plain closure: a latch costs no generic type lookups however it is called, which
/// matters to the downloader, which makes one per caller.
///
/// `@unchecked Sendable`: `handler` is written in `init` and afterwards touched only by the one thread whose
/// compare-and-exchange moved `status` away from pending (it takes the handler and clears it), or by `deinit`.
/// Every other member is an `Atomic`, a `Locked` or immutable.
package final class CompletionLatch<Success: Sendable>: @unchecked Sendable {
    package typealias Handler = @Sendable (Result<Success, WebImageError>) -> Void

    private static var pending: UInt8 { 0 }
    private static var finished: UInt8 { 1 }
    private static var cancelled: UInt8 { 2 }

    private let status = Atomic<UInt8>(0)
    private var handler: Handler?
    /// Work to run on cancellation; read and written with `status` checked under this lock, so a hook added while
    /// the latch is being cancelled runs exactly once.
    private let hooks = Locked(CancellationHooks())
    private let callbackQueue: CallbackQueue
    /// Makes what a cancelled caller receives; a closure so that a latch that is never cancelled never formats
    /// the message.
    private let cancellationError: @Sendable () -> WebImageError

    /// - Parameters:
    ///   - callbackQueue: Where the handler runs.
    ///   - cancellationError: What a cancelled caller receives.
    ///   - handler: Called exactly once.
    package init(
        callbackQueue: CallbackQueue,
        cancellationError: WebImageError = WebImageError(.cancelled, "the operation was cancelled"),
        handler: @escaping Handler
    ) {
        self.callbackQueue = callbackQueue
        self.cancellationError = { cancellationError }
        self.handler = handler
    }

    /// A latch whose cancellation error is made only if it is cancelled (its message names a URL, say, and
    /// formatting it on every load would cost more than the rest of a memory hit).
    package init(
        callbackQueue: CallbackQueue,
        makeCancellationError: @escaping @Sendable () -> WebImageError,
        handler: @escaping Handler
    ) {
        self.callbackQueue = callbackQueue
        cancellationError = makeCancellationError
        self.handler = handler
    }

    /// Whether the latch was cancelled.
    package var isCancelled: Bool {
        status.load(ordering: .acquiring) == Self.cancelled
    }

    /// Whether a result was delivered or the latch was cancelled.
    package var isDone: Bool {
        status.load(ordering: .acquiring) != Self.pending
    }

    /// Moves the latch from pending to `outcome`; on success returns the handler, which this thread now owns.
    private func take(_ outcome: UInt8) -> Handler? {
        guard status.compareExchange(expected: Self.pending, desired: outcome, ordering: .acquiringAndReleasing).exchanged
        else { return nil }
        defer { handler = nil }
        return handler
    }

    /// Delivers `result` unless the latch is already done.
    ///
    /// - Parameters:
    ///   - duringCall: Whether the caller is still in the call that started the operation.
    ///   - onFreeGlobalThread: Whether this thread is a global-queue thread holding nothing of the library's
    ///     (see ``CallbackQueue/execute(duringCall:onFreeGlobalThread:_:)``).
    ///   - batch: Where a delivery bound for the global concurrent queue is gathered instead of dispatched on its
    ///     own (see ``DeliveryBatch``).
    ///   - before: Work to run just before the handler, in the same block on the callback queue (a last progress
    ///     report, which must not come after the result); run only when this call delivers.
    /// - Returns: Whether this call delivered the result.
    @discardableResult
    package func finish(
        _ result: Result<Success, WebImageError>, duringCall: Bool = false, onFreeGlobalThread: Bool = false,
        batch: DeliveryBatch? = nil, before: (@Sendable () -> Void)? = nil
    ) -> Bool {
        guard let handler = take(Self.finished) else { return false }
        // Nothing will run the hooks now: release what they capture.
        let dropped = hooks.withLock { $0.takeAll() }
        _ = consume dropped
        if callbackQueue.runsInline(duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread) {
            before?()
            handler(result)
        } else {
            callbackQueue.execute(duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread, batch: batch) {
                before?()
                handler(result)
            }
        }
        return true
    }

    /// Cancels: delivers the cancellation error unless the latch is already done, and runs the cancellation
    /// hooks. Safe to call any number of times from any thread.
    package func cancel() {
        cancel(scheduling: nil)
    }

    /// Cancels as ``cancel()`` does, but hands the call of the handler to `schedule` instead of the callback
    /// queue, for an owner that must order it after a delivery of its own still on its way.
    package func cancel(scheduling schedule: ((@escaping @Sendable () -> Void) -> Void)?) {
        guard let handler = take(Self.cancelled) else { return }
        let toRun = hooks.withLock { $0.takeAll() }
        toRun.runAll()
        let error = cancellationError()
        let call: @Sendable () -> Void = { handler(.failure(error)) }
        if let schedule {
            schedule(call)
        } else {
            callbackQueue.execute(duringCall: false, call)
        }
    }

    /// Adds work to run when the latch is cancelled (cancelling an inner operation); runs it at once if the
    /// latch is already cancelled, and drops it if the latch has finished.
    package func onCancel(_ hook: @escaping @Sendable () -> Void) {
        let runNow: Bool = hooks.withLock { hooks in
            switch status.load(ordering: .acquiring) {
            case Self.pending:
                hooks.add(hook)
                return false
            case Self.cancelled:
                return true
            default:
                return false
            }
        }
        if runNow { hook() }
    }
}
