import WebImageCore

/// A route for progressive loads: `<prefix><fixture>[?length=1]` sends the first half of the fixture at once
/// (with Content-Length when `length` is given) and the rest only when ``release()`` is called, so that a test
/// can wait for a partial image of exactly half the body.
public final class TestHTTPHalfBody: Sendable {
    private let held = Locked<(TestHTTPResponder, [UInt8])?>(nil)

    /// Registers the route on `server`.
    public init(on server: TestHTTPServer, prefix: String = "/half/") {
        server.routes.registerPrefix(prefix) { [weak self] request, responder in
            guard let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder) else {
                responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
                return
            }
            var headers = [("Content-Type", entry.contentType)]
            if request.query["length"] != nil { headers.append(("Content-Length", String(entry.bytes.count))) }
            responder.writeHead(status: 200, headers: headers)
            let half = entry.bytes.count / 2
            // Held before the first half goes out: a client can see that half, and ask whether the rest is held,
            // before this handler would otherwise get to record it.
            self?.held.withLock { $0 = (responder, Array(entry.bytes[half...])) }
            responder.writeBody(entry.bytes[..<half])
        }
    }

    /// Registers `path` on `server`, serving `body` (with its Content-Length) the same way: the first half at once,
    /// the rest on ``release()``. For bodies made by a test rather than read from a fixture.
    public init(on server: TestHTTPServer, path: String, body: [UInt8], contentType: String) {
        server.routes.register(path) { [weak self] _, responder in
            responder.writeHead(status: 200, headers: [("Content-Type", contentType), ("Content-Length", String(body.count))])
            let half = body.count / 2
            self?.held.withLock { $0 = (responder, Array(body[half...])) }
            responder.writeBody(body[..<half])
        }
    }

    /// Whether a request is waiting for the rest of its body.
    public var isHolding: Bool {
        held.withLock { $0 != nil }
    }

    /// Sends the rest of the held body and ends the response, on the connection's event loop; does nothing when
    /// nothing is held (or it was already released).
    public func release() {
        guard let (responder, rest) = held.withLock({ $0.take() }) else { return }
        responder.eventLoop.execute {
            responder.writeBody(rest)
            responder.end()
        }
    }
}
