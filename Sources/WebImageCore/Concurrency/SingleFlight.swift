import Synchronization

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
        fileprivate let entry: Entry
        fileprivate let member: UInt64
        /// Whether this caller started the flight.
        package let started: Bool

        /// The state the flight's callers share, made by the first of them.
        package var work: Work { entry.work }
    }

    /// One flight, by identity (a handle or a ticket never matches a later flight of the same key), with its key
    /// and its work: one object per flight, so that the handles the work's closures capture copy a reference, not
    /// the key.
    fileprivate final class Entry: Sendable {
        let key: Key
        let work: Work
        /// How many members listen, changed under the lock and read without it, so that an update costs no lock
        /// when none listens (a transfer reports each chunk).
        let listeners = Atomic<Int>(0)

        init(key: Key, work: Work) {
            self.key = key
            self.work = work
        }
    }

    /// The running work's handle on its flight: to ask whether anyone still waits, to be told when no one does,
    /// to report and to deliver.
    package struct Flight: Sendable {
        fileprivate let owner: SingleFlight
        fileprivate let entry: Entry

        /// The state the flight's callers share.
        package var work: Work { entry.work }

        /// Whether a caller still waits for this flight; false once it has finished or every caller has left.
        /// The work asks before each costly step.
        package var isWanted: Bool {
            owner.state.withLock { $0.index(of: entry) != nil }
        }

        /// Sets what stops the work when every caller has left; runs `hook` at once when that has happened
        /// already. A flight has one hook: a second replaces the first.
        package func onCancel(_ hook: @escaping @Sendable () -> Void) {
            let runNow = owner.state.withLock { state -> Bool in
                guard let index = state.index(of: entry) else { return true }
                state.flights.values[index].onCancel = hook
                return false
            }
            if runNow { hook() }
        }

        /// Hands `update` to every member in the flight that listens, in the order they joined; does nothing
        /// once the flight has ended.
        package func update(_ update: Update) {
            guard entry.listeners.load(ordering: .relaxed) > 0 else { return }
            let listeners = owner.state.withLock { state -> Members<Listener> in
                guard let index = state.index(of: entry) else { return .none }
                // A closure, not a key path: in generic code a key path is made at run time, on every call.
                return state.flights.values[index].members.compactMap { $0.member.listen }
            }
            listeners.forEach { $0(update) }
        }

        /// Ends the flight and hands `value` to every caller still in it; does nothing when the flight has ended.
        package func finish(_ value: Value) {
            let receivers = owner.state.withLock { state -> Members<Receiver> in
                guard let index = state.index(of: entry) else { return .none }
                return state.flights.remove(at: index).value.members.compactMap { $0.member.receive }
            }
            receivers.forEach { $0(value) }
        }

        /// The number of callers in the flight; 0 once it has ended.
        package var memberCount: Int {
            owner.state.withLock { state in
                guard let index = state.index(of: entry) else { return 0 }
                return state.flights.values[index].members.count
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
        let entry: Entry
        var members: Members<Joined>
        var onCancel: (@Sendable () -> Void)?
    }

    private struct State {
        var flights: [Key: Running] = [:]
        /// Numbers the members, so that a caller leaves only its own place.
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// Where the flight `entry` names is, while it runs. Flights are read and changed through their index, in
        /// place: a copy of one held meanwhile would make each change copy its list of callers.
        func index(of entry: Entry) -> Dictionary<Key, Running>.Index? {
            guard let index = flights.index(forKey: entry.key), flights.values[index].entry === entry else { return nil }
            return index
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
            let listens = member.listen != nil
            if let index = state.flights.index(forKey: key) {
                state.flights.values[index].members.append(Joined(id: id, member: member))
                let entry = state.flights.values[index].entry
                if listens { entry.listeners.add(1, ordering: .relaxed) }
                return Ticket(entry: entry, member: id, started: false)
            }
            let entry = Entry(key: key, work: make())
            if listens { entry.listeners.store(1, ordering: .relaxed) }
            state.flights[key] = Running(entry: entry, members: .one(Joined(id: id, member: member)))
            return Ticket(entry: entry, member: id, started: true)
        }
        if ticket.started { start(Flight(owner: self, entry: ticket.entry)) }
        return ticket
    }

    /// Leaves a flight: the caller receives nothing more. The last caller to leave ends the flight and runs its
    /// cancellation hook, on this thread with no lock held. Leaving twice, or after the flight ended, does nothing.
    package func leave(_ ticket: Ticket) {
        let hook = state.withLock { state -> (@Sendable () -> Void)? in
            guard let index = state.index(of: ticket.entry),
                  let left = state.flights.values[index].members.remove(where: { $0.id == ticket.member })
            else { return nil }
            if left.member.listen != nil { ticket.entry.listeners.subtract(1, ordering: .relaxed) }
            guard state.flights.values[index].members.isEmpty else { return nil }
            return state.flights.remove(at: index).value.onCancel
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
