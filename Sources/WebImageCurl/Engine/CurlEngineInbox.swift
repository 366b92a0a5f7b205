import CCurl
#if canImport(Glibc)
import Glibc
import WebImageCore
#endif

/// The commands other threads post to the curl thread, behind a `Locked`, and the wakeup of the thread's
/// `curl_multi_poll`.
///
/// The multi handle is freed by the curl thread only after shutdown is flagged and no poster is between posting and
/// waking (`wakersInFlight` is zero), so a wakeup never reaches a freed handle. The wakeup itself runs outside the lock.
final class CurlEngineInbox: Sendable {
    enum Command {
        case add(CurlSubmission)
        case cancel(CurlTransferID)
        case setPriority(CurlTransferID, CurlRequest.Priority)
    }

    private struct State {
        var commands: [Command] = []
        var shuttingDown = false
        var wakersInFlight = 0
    }

    /// The multi handle, for `curl_multi_wakeup` only.
    ///
    /// `@unchecked Sendable`: `curl_multi_wakeup` may be called from any thread; every other use of the handle is on
    /// the curl thread, and the handle outlives every wakeup (see the type's comment).
    private struct Waker: @unchecked Sendable {
        let multi: UnsafeMutableRawPointer
    }

    private let state = Locked(State())
    private let waker: Waker

    init(multi: UnsafeMutableRawPointer) {
        waker = Waker(multi: multi)
    }

    /// Posts a command and wakes the curl thread. Returns false, posting nothing, once shutdown has begun.
    ///
    /// Only the command that finds the inbox empty wakes the thread: until the thread takes the commands, that
    /// wakeup is pending (curl keeps it for the next poll when the thread is not polling), so later commands ride
    /// on it. A burst of requests costs one wakeup, not one each.
    func post(_ command: Command) -> Bool {
        let posted: Bool? = state.withLock { state in
            guard !state.shuttingDown else { return nil }
            let wakes = state.commands.isEmpty
            state.commands.append(command)
            if wakes { state.wakersInFlight += 1 }
            return wakes
        }
        guard let wakes = posted else { return false }
        if wakes { wake() }
        return true
    }

    /// Flags shutdown and wakes the curl thread. Returns whether this call began the shutdown.
    @discardableResult
    func shutDown() -> Bool {
        let first = state.withLock { state in
            guard !state.shuttingDown else { return false }
            state.shuttingDown = true
            state.wakersInFlight += 1
            return true
        }
        if first { wake() }
        return first
    }

    /// Takes the posted commands, and whether shutdown was asked. Curl thread only.
    func take() -> (commands: [Command], shuttingDown: Bool) {
        state.withLock { state in
            guard !state.commands.isEmpty else { return ([], state.shuttingDown) }
            let commands = state.commands
            state.commands = []
            return (commands, state.shuttingDown)
        }
    }

    /// Waits until no poster is about to wake the multi handle; called by the curl thread after shutdown was
    /// flagged, before it frees the handle. Posters hold this window for one `curl_multi_wakeup` only.
    func waitForWakers() {
        while state.withLock({ $0.wakersInFlight }) > 0 {
            sched_yield()
        }
    }

    private func wake() {
        _ = curl_multi_wakeup(waker.multi)
        state.withLock { $0.wakersInFlight -= 1 }
    }
}
