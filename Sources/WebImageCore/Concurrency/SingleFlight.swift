/// Work keyed by `Key` that runs once for all the callers that want it at the same time: a disk read and its
/// decode, a transform, a fetch and its decode, a transfer. The package's one coalescer.
///
/// - The first caller for a key starts the work. `make` builds the flight's `Work`, the state its callers share
///   (under the lock: it must be cheap and call out to nothing); then `start` runs on the caller's thread, after
///   the lock is released, with the flight's handle. Callers that come while the work runs join it instead, and
///   their ticket carries the same `Work`.
/// - While it runs, the work may report with ``Flight/update(_:)``: every member that listens gets each report,
///   on the reporting thread, outside the lock.
/// - The work ends with ``Flight/finish(_:)``: every caller still in the flight receives the value once, in the
///   order they joined, on the finishing thread, outside the lock. A caller arriving after that starts the work
///   afresh.
/// - A caller leaves with ``leave(_:)`` and receives nothing more. When the last one leaves, the flight ends: the
///   work's cancellation hook (``Flight/onCancel(_:)``) runs, and whatever the work finishes with goes nowhere.
///
/// Each transition is worked out under the lock and returns what to do; the owner does it after the lock is
/// released, so no receiver, start, listener or hook ever runs with the lock held. A flight with one caller, the
/// usual case, keeps it inline and allocates no list. Thread-safe.
package final class SingleFlight<Key: Hashable & Sendable, Work: Sendable, Update: Sendable, Value: Sendable>: Sendable {
    package typealias Receiver = @Sendable (Value) -> Void
    package typealias Listener = @Sendable (Update) -> Void

    /// One caller of a flight: what it receives at the end, and what it hears on the way.
    package struct Member: Sendable {
        package let receive: Receiver
        package let listen: Listener?

        /// - Parameters:
        ///   - listen: Gets each ``Flight/update(_:)`` while the caller is in the flight; nil for none.
        ///   - receive: Gets the flight's value once, unless the caller leaves first.
        package init(listen: Listener? = nil, receive: @escaping Receiver) {
            self.receive = receive
            self.listen = listen
        }
    }

    /// A caller's place in a flight, to leave it by, with the flight's shared `Work`.
    package struct Ticket: Sendable {
        fileprivate let key: Key
        fileprivate let flight: UInt64
        fileprivate let member: UInt64
        /// The state the flight's callers share, made by the first of them.
        package let work: Work
        /// Whether this caller started the flight.
        package let started: Bool
    }

    /// The running work's handle on its flight: to ask whether anyone still waits, to be told when no one does,
    /// to report and to deliver.
    package struct Flight: Sendable {
        fileprivate let owner: SingleFlight
        fileprivate let key: Key
        fileprivate let id: UInt64
        /// The state the flight's callers share.
        package let work: Work

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

        /// Hands `update` to every member in the flight that listens, in the order they joined; does nothing
        /// once the flight has ended.
        package func update(_ update: Update) {
            let listeners = owner.state.withLock { state -> Members<Listener> in
                guard let flight = state.flights[key], flight.id == id, flight.listeners > 0 else { return .none }
                return flight.members.compactMap(\.member.listen)
            }
            listeners.forEach { $0(update) }
        }

        /// Ends the flight and hands `value` to every caller still in it; does nothing when the flight has ended.
        package func finish(_ value: Value) {
            let receivers = owner.state.withLock { state -> Members<Receiver> in
                guard let flight = state.flights[key], flight.id == id else { return .none }
                state.flights[key] = nil
                return flight.members.compactMap { $0.member.receive }
            }
            receivers.forEach { $0(value) }
        }

        /// The number of callers in the flight; 0 once it has ended.
        package var memberCount: Int {
            owner.state.withLock { state in
                guard let flight = state.flights[key], flight.id == id else { return 0 }
                return flight.members.count
            }
        }
    }

    /// A member as a flight keeps it, with its number.
    private struct Joined {
        let id: UInt64
        let member: Member
    }

    /// One key's running work and its callers.
    private struct Running {
        let id: UInt64
        let work: Work
        var members: Members<Joined>
        /// Members with a listener, so that an update costs nothing when none listens.
        var listeners: Int
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

    /// Joins the flight running for `key`, or starts one: `make` builds its work under the lock, and `start`
    /// runs during this call on this thread with no lock held.
    ///
    /// - Returns: This caller's ticket, for ``leave(_:)``, with the flight's work.
    package func join(
        _ key: Key,
        _ member: Member,
        make: () -> Work,
        start: (Flight) -> Void
    ) -> Ticket {
        let ticket = state.withLock { state -> Ticket in
            let id = state.makeID()
            let listens = member.listen != nil ? 1 : 0
            if let running = state.flights[key] {
                state.flights[key]!.members.append(Joined(id: id, member: member))
                state.flights[key]!.listeners += listens
                return Ticket(key: key, flight: running.id, member: id, work: running.work, started: false)
            }
            let flight = state.makeID()
            let work = make()
            state.flights[key] = Running(
                id: flight, work: work, members: .one(Joined(id: id, member: member)), listeners: listens
            )
            return Ticket(key: key, flight: flight, member: id, work: work, started: true)
        }
        if ticket.started { start(Flight(owner: self, key: key, id: ticket.flight, work: ticket.work)) }
        return ticket
    }

    /// Leaves a flight: the caller receives nothing more. The last caller to leave ends the flight and runs its
    /// cancellation hook, on this thread with no lock held. Leaving twice, or after the flight ended, does nothing.
    package func leave(_ ticket: Ticket) {
        let hook = state.withLock { state -> (@Sendable () -> Void)? in
            guard var running = state.flights[ticket.key], running.id == ticket.flight,
                  let left = running.members.remove(where: { $0.id == ticket.member })
            else { return nil }
            if left.member.listen != nil { running.listeners -= 1 }
            guard running.members.isEmpty else {
                state.flights[ticket.key] = running
                return nil
            }
            state.flights[ticket.key] = nil
            return running.onCancel
        }
        hook?()
    }

    /// The number of flights running.
    package var count: Int { state.withLock { $0.flights.count } }
}

extension SingleFlight where Work == Void, Update == Never {
    /// Joins the flight running for `key`, or starts one with `start`, for work that shares no state and reports
    /// nothing on the way: `receiver` gets the flight's value once, unless this caller leaves first.
    package func join(_ key: Key, receiver: @escaping Receiver, start: (Flight) -> Void) -> Ticket {
        join(key, Member(receive: receiver), make: {}, start: start)
    }
}

/// None, one or several, in order: the members of a flight, which nearly always has one, kept without a list.
private enum Members<Element> {
    case none
    case one(Element)
    case many([Element])

    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let elements): elements.count
        }
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: Element) {
        switch self {
        case .none: self = .one(element)
        case .one(let first): self = .many([first, element])
        case .many(var elements):
            self = .none
            elements.append(element)
            self = .many(elements)
        }
    }

    /// Removes the first element that matches and returns it.
    mutating func remove(where matches: (Element) -> Bool) -> Element? {
        switch self {
        case .none:
            return nil
        case .one(let only):
            guard matches(only) else { return nil }
            self = .none
            return only
        case .many(var elements):
            guard let index = elements.firstIndex(where: matches) else { return nil }
            self = .none
            let removed = elements.remove(at: index)
            self = elements.isEmpty ? .none : .many(elements)
            return removed
        }
    }

    func compactMap<Mapped>(_ transform: (Element) -> Mapped?) -> Members<Mapped> {
        switch self {
        case .none: return .none
        case .one(let only): return transform(only).map { .one($0) } ?? .none
        case .many(let elements): return .many(elements.compactMap(transform))
        }
    }

    func forEach(_ body: (Element) -> Void) {
        switch self {
        case .none: break
        case .one(let only): body(only)
        case .many(let elements): elements.forEach(body)
        }
    }
}
