import WebImageCore

/// Stops sending commands to a server that keeps failing, for a while, so that loads do not each wait out a
/// timeout: the classic three states.
///
/// - Closed: commands go; each failure of the connection (refused, timed out, lost) counts, a success resets
///   the count. At `threshold` failures in a row the breaker opens.
/// - Open: no command goes until `openDuration` has passed; each is refused at once.
/// - Half open: after that, one command goes as a probe. Its success closes the breaker; its failure opens it for
///   another `openDuration`. Other commands are refused while the probe is out.
///
/// An error reply from the server (a full memory, a wrong type) is no failure of the connection and does not
/// count. Thread-safe.
package final class RedisCircuitBreaker: Sendable {
    /// What the breaker says of one command.
    package enum Admission: Sendable, Equatable {
        /// Send it.
        case allowed
        /// Send it as the half-open probe: its outcome decides the state.
        case probe
        /// Do not send it: the breaker is open (or a probe is out).
        case refused
    }

    /// A change of state worth a log line and a metric.
    package enum Transition: Sendable, Equatable {
        case opened
        case closed
    }

    private struct State {
        var failures = 0
        var openUntil: ContinuousClock.Instant?
        var probing = false
    }

    package let threshold: Int
    package let openDuration: Duration
    private let state = Locked(State())

    package init(threshold: Int, openDuration: Duration) {
        self.threshold = max(1, threshold)
        self.openDuration = openDuration
    }

    /// Whether a command may go now.
    package func admit(now: ContinuousClock.Instant = .now) -> Admission {
        state.withLock { state in
            guard let openUntil = state.openUntil else { return .allowed }
            if now < openUntil || state.probing { return .refused }
            state.probing = true
            return .probe
        }
    }

    /// Whether the breaker is open now (commands refused).
    package var isOpen: Bool {
        state.withLock { $0.openUntil != nil }
    }

    /// Records a command that reached the server and got its reply; closes the breaker after a probe.
    package func recordSuccess() -> Transition? {
        state.withLock { state in
            let wasOpen = state.openUntil != nil
            state = State()
            return wasOpen ? .closed : nil
        }
    }

    /// Records a failure of the connection; opens the breaker at the threshold, or again after a failed probe.
    package func recordFailure(now: ContinuousClock.Instant = .now) -> Transition? {
        state.withLock { state in
            if state.openUntil != nil {
                // A failed probe (or a command sent before the breaker opened): open for another period.
                state.probing = false
                state.openUntil = now + openDuration
                return nil
            }
            state.failures += 1
            guard state.failures >= threshold else { return nil }
            state.openUntil = now + openDuration
            state.probing = false
            return .opened
        }
    }

    /// Gives back a probe whose command never ran (refused by the pool, say): the next command probes instead.
    package func cancelProbe() {
        state.withLock { $0.probing = false }
    }
}
