/// Runs callbacks one at a time, in the order they were handed over, on a callback queue that may be concurrent:
/// a later callback never starts before an earlier one has returned.
///
/// A burst of callbacks costs one trip to the queue; the block that drains them runs them all.
final class SerialCallbacks: Sendable {
    private let queue: CallbackQueue
    private let state = Locked<(pending: [@Sendable () -> Void], head: Int, draining: Bool)>(([], 0, false))

    init(queue: CallbackQueue) {
        self.queue = queue
    }

    /// Queues `work` after every callback handed over before it.
    ///
    /// - Parameter duringCall: Whether the caller of the public operation is still in its call, on its thread.
    func enqueue(duringCall: Bool = false, _ work: @escaping @Sendable () -> Void) {
        let starts: Bool = state.withLock { state in
            state.pending.append(work)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if starts {
            queue.execute(duringCall: duringCall) { [self] in drain() }
        }
    }

    private func drain() {
        while let next = takeNext() {
            next()
        }
    }

    private func takeNext() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard state.head < state.pending.count else {
                state.pending.removeAll(keepingCapacity: true)
                state.head = 0
                state.draining = false
                return nil
            }
            defer { state.head += 1 }
            return state.pending[state.head]
        }
    }
}
