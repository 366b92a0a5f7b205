import WebImageCore

/// The requests a test server has seen: a count per path and the headers of the last request per path.
final class TestHTTPRequestLog: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var lastHeaders: [String: [(String, String)]] = [:]
        var total = 0
    }

    private let state = Locked(State())

    func record(path: String, headers: [(String, String)]) {
        state.withLock {
            $0.counts[path, default: 0] += 1
            $0.lastHeaders[path] = headers
            $0.total += 1
        }
    }

    func count(forPath path: String) -> Int {
        state.withLock { $0.counts[path] ?? 0 }
    }

    var total: Int {
        state.withLock { $0.total }
    }

    func lastHeaders(forPath path: String) -> [(String, String)]? {
        state.withLock { $0.lastHeaders[path] }
    }

    func reset() {
        state.withLock { $0 = State() }
    }
}
