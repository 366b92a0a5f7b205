import Synchronization

/// Delivers one result to one completion handler exactly once, whatever the race between finishing and
/// cancelling: the first of ``finish(_:duringCall:)`` and ``cancel()`` wins, the other does nothing.
///
/// The handler is released as soon as it has been taken, so nothing it captures outlives the delivery.
///
/// Inlinable, so that the modules that make one latch per caller (the downloader) get code specialised for their
/// result type rather than generic code that looks up type metadata on every call.
package final class CompletionLatch<Success: Sendable>: Sendable {
    package typealias Handler = @Sendable (Result<Success, WebImageError>) -> Void

    @usableFromInline
    enum State {
        case pending(Handler, onCancel: [@Sendable () -> Void])
        case finished
        case cancelled
    }

    @usableFromInline let state: Mutex<State>
    @usableFromInline let callbackQueue: CallbackQueue
    @usableFromInline let cancellationError: WebImageError

    /// - Parameters:
    ///   - callbackQueue: Where the handler runs.
    ///   - cancellationError: What a cancelled caller receives.
    ///   - handler: Called exactly once.
    @inlinable
    package init(
        callbackQueue: CallbackQueue,
        cancellationError: WebImageError = WebImageError(.cancelled, "the operation was cancelled"),
        handler: @escaping Handler
    ) {
        self.callbackQueue = callbackQueue
        self.cancellationError = cancellationError
        state = Mutex(.pending(handler, onCancel: []))
    }

    /// Whether the latch was cancelled.
    @inlinable
    package var isCancelled: Bool {
        state.withLock { if case .cancelled = $0 { true } else { false } }
    }

    /// Whether a result was delivered or the latch was cancelled.
    @inlinable
    package var isDone: Bool {
        state.withLock { if case .pending = $0 { false } else { true } }
    }

    /// Delivers `result` unless the latch is already done.
    ///
    /// - Parameters:
    ///   - duringCall: Whether the caller is still in the call that started the operation.
    ///   - onFreeGlobalThread: Whether this thread is a global-queue thread holding nothing of the library's
    ///     (see ``CallbackQueue/execute(duringCall:onFreeGlobalThread:_:)``).
    /// - Returns: Whether this call delivered the result.
    @inlinable @discardableResult
    package func finish(
        _ result: Result<Success, WebImageError>, duringCall: Bool = false, onFreeGlobalThread: Bool = false
    ) -> Bool {
        let handler: Handler? = state.withLock { state in
            guard case .pending(let handler, _) = state else { return nil }
            state = .finished
            return handler
        }
        guard let handler else { return false }
        if callbackQueue.runsInline(duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread) {
            handler(result)
        } else {
            callbackQueue.execute(duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread) { handler(result) }
        }
        return true
    }

    /// Cancels: delivers the cancellation error unless the latch is already done, and runs the cancellation
    /// hooks. Safe to call any number of times from any thread.
    @inlinable
    package func cancel() {
        let taken: (Handler, [@Sendable () -> Void])? = state.withLock { state in
            guard case .pending(let handler, let hooks) = state else { return nil }
            state = .cancelled
            return (handler, hooks)
        }
        guard let (handler, hooks) = taken else { return }
        for hook in hooks { hook() }
        let error = cancellationError
        callbackQueue.execute(duringCall: false) { handler(.failure(error)) }
    }

    /// Adds work to run when the latch is cancelled (cancelling an inner operation); runs it at once if the
    /// latch is already cancelled.
    @inlinable
    package func onCancel(_ hook: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            switch state {
            case .pending(let handler, var hooks):
                hooks.append(hook)
                state = .pending(handler, onCancel: hooks)
                return false
            case .cancelled:
                return true
            case .finished:
                return false
            }
        }
        if runNow { hook() }
    }
}
