/// Work keyed by `Key` that runs once for all the callers that want it at the same time: a disk read and its
/// decode, a transform.
///
/// - The first caller for a key starts the work: `start` runs on its thread, after the lock is released, with the
///   flight's handle. Callers that come while the work runs join it instead.
/// - The work ends with ``Flight/finish(_:)``: every caller still in the flight receives the value once, in the
///   order they joined, on the finishing thread, outside the lock. A caller arriving after that starts the work
///   afresh.
/// - A caller leaves with ``leave(_:)`` and receives nothing more. When the last one leaves, the flight ends: the
///   work's cancellation hook (``Flight/onCancel(_:)``) runs, and whatever the work finishes with goes nowhere.
///
/// Each transition is worked out under the lock and returns what to do; the owner does it after the lock is
/// released, so no receiver, start or hook ever runs with the lock held. Thread-safe.
package final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package typealias Receiver = @Sendable (Value) -> Void

    /// A caller's place in a flight, to leave it by.
    package struct Ticket: Sendable {
        fileprivate let key: Key
        fileprivate let flight: UInt64
        fileprivate let member: UInt64
    }

    /// The running work's handle on its flight: to ask whether anyone still waits, to be told when no one does,
    /// and to deliver.
    package struct Flight: Sendable {
        fileprivate let owner: SingleFlight
        fileprivate let key: Key
        fileprivate let id: UInt64

        /// Whether a caller still waits for this flight; false once it has finished or every caller has left.
        /// The work asks before each costly step.
        package var isWanted: Bool {
            owner.state.withLock { $0.flights[key]?.id == id }
        }

        /// Sets what stops the work when every caller has left; runs `hook` at once when that has happened
        /// already. A flight has one hook: a second replaces the first.
        package func onCancel(_ hook: @escaping @Sendable () -> Void) {
            let runNow = owner.state.withLock { state -> Bool in
                guard state.flights[key]?.id == id else { return true }
                state.flights[key]!.onCancel = hook
                return false
            }
            if runNow { hook() }
        }

        /// Ends the flight and hands `value` to every caller still in it; does nothing when the flight has ended.
        package func finish(_ value: Value) {
            let receivers = owner.state.withLock { state -> [Receiver] in
                guard let flight = state.flights[key], flight.id == id else { return [] }
                state.flights[key] = nil
                return flight.members.map(\.receiver)
            }
            for receive in receivers { receive(value) }
        }
    }

    private struct Member {
        let id: UInt64
        let receiver: Receiver
    }

    /// One key's running work and its callers.
    private struct Running {
        let id: UInt64
        var members: [Member]
        var onCancel: (@Sendable () -> Void)?
    }

    private struct State {
        var flights: [Key: Running] = [:]
        /// Numbers flights and members alike, so that a ticket or a handle never matches a later flight.
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let state = Locked(State())

    package init() {}

    /// Joins the flight running for `key`, or starts one with `start`, which runs during this call on this
    /// thread with no lock held. `receiver` gets the flight's value once, unless this caller leaves first.
    ///
    /// - Returns: This caller's ticket, for ``leave(_:)``.
    package func join(_ key: Key, receiver: @escaping Receiver, start: (Flight) -> Void) -> Ticket {
        let (ticket, starts) = state.withLock { state -> (Ticket, Bool) in
            let member = state.makeID()
            if let running = state.flights[key] {
                state.flights[key]!.members.append(Member(id: member, receiver: receiver))
                return (Ticket(key: key, flight: running.id, member: member), false)
            }
            let flight = state.makeID()
            state.flights[key] = Running(id: flight, members: [Member(id: member, receiver: receiver)])
            return (Ticket(key: key, flight: flight, member: member), true)
        }
        if starts { start(Flight(owner: self, key: key, id: ticket.flight)) }
        return ticket
    }

    /// Leaves a flight: the caller receives nothing more. The last caller to leave ends the flight and runs its
    /// cancellation hook, on this thread with no lock held. Leaving twice, or after the flight ended, does nothing.
    package func leave(_ ticket: Ticket) {
        let hook = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.flights[ticket.key]?.id == ticket.flight else { return nil }
            state.flights[ticket.key]!.members.removeAll { $0.id == ticket.member }
            guard state.flights[ticket.key]!.members.isEmpty else { return nil }
            return state.flights.removeValue(forKey: ticket.key)?.onCancel
        }
        hook?()
    }

    /// The number of flights running.
    package var count: Int { state.withLock { $0.flights.count } }
}
