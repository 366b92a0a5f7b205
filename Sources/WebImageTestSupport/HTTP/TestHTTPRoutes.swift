import WebImageCore

/// A route's handler: runs on the connection's event loop, so it must not block; it answers through the responder,
/// now or later (`TestHTTPResponder/after(milliseconds:_:)`).
public typealias TestHTTPHandler = @Sendable (TestHTTPRequest, TestHTTPResponder) -> Void

/// The routing table of a test server: exact paths first, then the longest matching prefix, else 404.
///
/// Thread-safe: tests may register routes while the server runs.
public final class TestHTTPRoutes: Sendable {
    private struct Table {
        var exact: [String: TestHTTPHandler] = [:]
        var prefixes: [(prefix: String, handler: TestHTTPHandler)] = []
    }

    private let table = Locked(Table())

    /// An empty table: every path answers 404.
    public init() {}

    /// Routes `path` (without query) to `handler`, replacing any earlier route for it.
    public func register(_ path: String, _ handler: @escaping TestHTTPHandler) {
        table.withLock { $0.exact[path] = handler }
    }

    /// Routes every path that starts with `prefix` to `handler`; the rest of the path is the request's `remainder`.
    public func registerPrefix(_ prefix: String, _ handler: @escaping TestHTTPHandler) {
        table.withLock { table in
            table.prefixes.removeAll { $0.prefix == prefix }
            table.prefixes.append((prefix, handler))
            table.prefixes.sort { $0.prefix.count > $1.prefix.count }
        }
    }

    /// The handler for `request`, with its `remainder` set, or nil for none.
    func route(_ request: TestHTTPRequest) -> (TestHTTPRequest, TestHTTPHandler)? {
        let found: (String, TestHTTPHandler)? = table.withLock { table in
            if let handler = table.exact[request.path] { return ("", handler) }
            if let match = table.prefixes.first(where: { request.path.hasPrefix($0.prefix) }) {
                return (match.prefix, match.handler)
            }
            return nil
        }
        guard let (prefix, handler) = found else { return nil }
        var routed = request
        routed.remainder = request.path.dropFirst(prefix.count)
        return (routed, handler)
    }

    /// A table with every standard route of the test server (see ``TestHTTPServer``).
    public static func standard(fixtures: TestHTTPFixtureCatalog = .shared) -> TestHTTPRoutes {
        let routes = TestHTTPRoutes()
        routes.registerContentRoutes(fixtures)
        routes.registerFaultRoutes()
        routes.registerRedirectRoutes()
        routes.registerValidationRoutes(fixtures)
        routes.registerTrickleRoute(fixtures)
        return routes
    }
}
