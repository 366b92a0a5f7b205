import NIOCore
import WebImageCore

/// The open client connections of a test server, so that shutdown can close them all, stalled ones included.
final class TestHTTPConnectionSet: Sendable {
    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var accepted = 0
        var closed = false
    }

    private let state = Locked(State())

    /// Adds `channel`; false once the server is shutting down, when the channel must be closed instead.
    func insert(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.open[ObjectIdentifier(channel)] = channel
            state.accepted += 1
            return true
        }
    }

    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    var count: Int { state.withLock { $0.open.count } }

    /// Every connection inserted so far, closed ones included.
    var acceptedCount: Int { state.withLock { $0.accepted } }

    /// Marks the set closed and returns the connections to close; nil when it was already closed.
    func closeAll() -> [any Channel]? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            return Array(state.open.values)
        }
    }
}
