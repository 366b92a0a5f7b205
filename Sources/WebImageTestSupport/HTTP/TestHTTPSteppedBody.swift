import WebImageCore

/// A route for progressive loads that sends a body in parts, each only when the test asks for it, so that a test can
/// wait for the partial image of each part however slowly a loaded machine decodes.
///
/// `<prefix><fixture>[?length=1]` (or a `path` with a body of the test's own) sends the body up to its first cut at
/// once (with Content-Length when `length` is given, always for a test's own body), then one more part at each
/// ``release()``; the release that sends the last part ends the response. Cuts are fractions of the body's length, in
/// increasing order; the default holds the second half.
public final class TestHTTPSteppedBody: Sendable {
    /// The responder of the held request and the parts it has still to send.
    private let held = Locked<(TestHTTPResponder, [[UInt8]])?>(nil)

    /// The number of ``release()`` calls a request needs to get its whole body.
    public let steps: Int

    /// Registers the route on `server`.
    public init(on server: TestHTTPServer, prefix: String = "/half/", cuts: [Double] = [0.5]) {
        steps = cuts.count
        server.routes.registerPrefix(prefix) { [weak self] request, responder in
            guard let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder) else {
                responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
                return
            }
            var headers = [("Content-Type", entry.contentType)]
            if request.query["length"] != nil { headers.append(("Content-Length", String(entry.bytes.count))) }
            self?.start(responder, headers: headers, body: entry.bytes, cuts: cuts)
        }
    }

    /// Registers `path` on `server`, serving `body` (with its Content-Length) the same way.
    public init(on server: TestHTTPServer, path: String, body: [UInt8], contentType: String, cuts: [Double] = [0.5]) {
        steps = cuts.count
        server.routes.register(path) { [weak self] _, responder in
            let headers = [("Content-Type", contentType), ("Content-Length", String(body.count))]
            self?.start(responder, headers: headers, body: body, cuts: cuts)
        }
    }

    private func start(_ responder: TestHTTPResponder, headers: [(String, String)], body: [UInt8], cuts: [Double]) {
        precondition(cuts == cuts.sorted() && cuts.allSatisfy { $0 > 0 && $0 < 1 }, "cuts are increasing fractions")
        let offsets = [0] + cuts.map { Int(Double(body.count) * $0) } + [body.count]
        let parts = zip(offsets, offsets.dropFirst()).map { Array(body[$0..<$1]) }
        responder.writeHead(status: 200, headers: headers)
        // Held before the first part goes out: a client can see that part, and ask whether the rest is held, before
        // this handler would otherwise get to record it.
        held.withLock { $0 = (responder, Array(parts.dropFirst())) }
        responder.writeBody(parts[0])
    }

    /// Whether a request is waiting for more of its body.
    public var isHolding: Bool {
        held.withLock { $0 != nil }
    }

    /// Sends the next part of the held body, and ends the response after the last one, on the connection's event
    /// loop; does nothing when nothing is held (or the whole body was sent).
    public func release() {
        let next: (TestHTTPResponder, [UInt8], isLast: Bool)? = held.withLock { state in
            guard let (responder, parts) = state, let part = parts.first else { return nil }
            let rest = Array(parts.dropFirst())
            state = rest.isEmpty ? nil : (responder, rest)
            return (responder, part, rest.isEmpty)
        }
        guard let (responder, part, isLast) = next else { return }
        responder.eventLoop.execute {
            responder.writeBody(part)
            if isLast { responder.end() }
        }
    }
}
