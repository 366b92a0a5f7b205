/// Work in flight, by ticket, for callers that wait until everything begun before them has ended: a barrier over
/// work that runs anywhere, such as the encodes that come before an image cache's disk writes.
///
/// Thread-safe. Costs one lock and a set insertion per piece of work; the waiters are looked at only when there
/// are some.
package final class PendingWork: Sendable {
    private struct State {
        var nextTicket: UInt64 = 0
        var inFlight: Set<UInt64> = []
        /// Each waiter with the first ticket it does not wait for.
        var waiters: [(bound: UInt64, action: @Sendable () -> Void)] = []

        /// Takes the waiters whose work has all ended.
        mutating func takeReadyWaiters() -> [@Sendable () -> Void] {
            guard !waiters.isEmpty else { return [] }
            let oldest = inFlight.min() ?? .max
            var ready: [@Sendable () -> Void] = []
            waiters.removeAll { waiter in
                guard waiter.bound <= oldest else { return false }
                ready.append(waiter.action)
                return true
            }
            return ready
        }
    }

    private let state = Locked(State())

    package init() {}

    /// Records the start of a piece of work; pass the ticket to ``end(_:)`` once it is done.
    package func begin() -> UInt64 {
        state.withLock { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.inFlight.insert(ticket)
            return ticket
        }
    }

    /// Records the end of the work `ticket` stands for, and runs, on this thread after the lock is released, the
    /// waiters that no longer wait for anything.
    package func end(_ ticket: UInt64) {
        let ready = state.withLock { state in
            state.inFlight.remove(ticket)
            return state.takeReadyWaiters()
        }
        for action in ready { action() }
    }

    /// Runs `action` once every piece of work begun before this call has ended: at once, on this thread, when none
    /// is in flight, else on the thread that ends the last of them. Work begun afterwards is not waited for.
    package func whenDone(_ action: @escaping @Sendable () -> Void) {
        let runsNow = state.withLock { state in
            let bound = state.nextTicket
            guard let oldest = state.inFlight.min(), oldest < bound else { return true }
            state.waiters.append((bound, action))
            return false
        }
        if runsNow { action() }
    }
}
