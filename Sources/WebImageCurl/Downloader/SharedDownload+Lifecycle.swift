extension SharedDownload {
    /// A shared transfer's lifecycle as a state machine: made by its first caller, numbered once the engine has
    /// taken it, done once the engine has completed it. On the way, callers may raise its priority and the last of
    /// them may abandon it; what that asks of the engine depends on whether it has been numbered yet.
    ///
    /// Each transition returns what the download must ask of the engine; the download asks after releasing its
    /// lock. Not thread-safe: the download keeps it behind its lock. Generic over the flight it ends, so that its
    /// tests need no single-flight.
    struct Lifecycle<Flight> {
        enum Phase {
            /// Not numbered yet: `flight` is set before the engine may call, `isAbandoned` once every caller has
            /// left.
            case starting(flight: Flight?, isAbandoned: Bool)
            case running(flight: Flight?, id: CurlTransferID)
            case done
        }

        /// What the download asks of the engine.
        enum Action: Equatable {
            case none
            case cancel(CurlTransferID)
            case raise(CurlTransferID, to: CurlRequest.Priority)
        }

        private(set) var phase = Phase.starting(flight: nil, isAbandoned: false)
        /// The priority the transfer was started with.
        let startPriority: CurlRequest.Priority
        /// The highest priority a caller has asked for.
        private(set) var priority: CurlRequest.Priority

        init(priority: CurlRequest.Priority) {
            startPriority = priority
            self.priority = priority
        }

        /// The flight to report to, until the transfer is done.
        var flight: Flight? {
            switch phase {
            case .starting(let flight, _), .running(let flight, _): flight
            case .done: nil
            }
        }

        /// Gives the download its flight, before the engine may call it.
        mutating func attach(_ flight: Flight) {
            if case .starting(_, let isAbandoned) = phase { phase = .starting(flight: flight, isAbandoned: isAbandoned) }
        }

        /// The engine numbered the transfer: cancel it when every caller left before, raise it when a caller asked
        /// for more since it was started.
        mutating func started(_ id: CurlTransferID) -> Action {
            guard case .starting(let flight, let isAbandoned) = phase else { return .none }
            phase = .running(flight: flight, id: id)
            if isAbandoned { return .cancel(id) }
            return priority > startPriority ? .raise(id, to: priority) : .none
        }

        /// A caller that asked for `priority` joined.
        mutating func raise(to priority: CurlRequest.Priority) -> Action {
            guard priority > self.priority else { return .none }
            switch phase {
            case .starting:
                self.priority = priority
                return .none
            case .running(_, let id):
                self.priority = priority
                return .raise(id, to: priority)
            case .done:
                return .none
            }
        }

        /// Every caller left.
        mutating func abandon() -> Action {
            switch phase {
            case .starting(let flight, _):
                phase = .starting(flight: flight, isAbandoned: true)
                return .none
            case .running(_, let id):
                return .cancel(id)
            case .done:
                return .none
            }
        }

        /// The engine completed the transfer: returns the flight to end, and lets go of it, so that the download
        /// and its flight do not keep each other.
        mutating func complete() -> Flight? {
            defer { phase = .done }
            return flight
        }
    }
}
