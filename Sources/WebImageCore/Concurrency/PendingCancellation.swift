/// Settles the race between starting work and cancelling the task that waits for it, for the async forms that wrap
/// a callback API: the handle of the work (an operation, a query token, a latch) and the task's cancellation may
/// come in either order, and whichever comes second cancels the work, once, outside the lock.
///
/// ```swift
/// let pending = PendingCancellation<ImageLoadOperation> { $0.cancel() }
/// await withTaskCancellationHandler {
///     await withCheckedContinuation { continuation in pending.set(start { continuation.resume(returning: $0) }) }
/// } onCancel: {
///     pending.cancel()
/// }
/// ```
///
/// Thread-safe.
package final class PendingCancellation<Handle: Sendable>: Sendable {
    private let state = Locked<(handle: Handle?, cancelled: Bool)>((nil, false))
    private let cancelHandle: @Sendable (Handle) -> Void

    /// - Parameter cancel: Cancels the work through its handle; runs at most once, on the thread that comes second.
    package init(cancel: @escaping @Sendable (Handle) -> Void) {
        cancelHandle = cancel
    }

    /// Records the work's handle; cancels it at once when the task was cancelled before.
    package func set(_ handle: Handle) {
        let cancelled = state.withLock { state in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { cancelHandle(handle) }
    }

    /// The task was cancelled: cancels the work when its handle is known, else when it comes.
    package func cancel() {
        let handle = state.withLock { state -> Handle? in
            state.cancelled = true
            return state.handle.take()
        }
        if let handle { cancelHandle(handle) }
    }
}
