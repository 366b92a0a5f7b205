/// The route that serves a fixture slowly, for progressive loads.
///
/// - `/trickle/<name>?parts=K&interval_ms=M[&length=1]`: the fixture in K pieces of equal size (default 6), the first
///   after M ms (default 60) and each next M ms after the one before; with Content-Length when `length` is given,
///   chunked otherwise. Waits are scheduled on the event loop.
extension TestHTTPRoutes {
    func registerTrickleRoute(_ fixtures: TestHTTPFixtureCatalog) {
        registerPrefix("/trickle/") { request, responder in
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            let parts = max(1, min(request.int("parts", default: 6), 10_000))
            let interval = max(0, request.int("interval_ms", default: 60))
            var headers = [("Content-Type", entry.contentType)]
            if request.query["length"] != nil { headers.append(("Content-Length", String(entry.bytes.count))) }
            responder.writeHead(status: 200, headers: headers)
            Self.trickle(entry.bytes, responder: responder, parts: parts, index: 0, interval: interval)
        }
    }

    private static func trickle(_ bytes: [UInt8], responder: TestHTTPResponder, parts: Int, index: Int, interval: Int) {
        responder.after(milliseconds: interval) {
            let start = bytes.count * index / parts
            let end = bytes.count * (index + 1) / parts
            responder.writeBody(Array(bytes[start..<end]))
            if index + 1 == parts {
                responder.end()
            } else {
                trickle(bytes, responder: responder, parts: parts, index: index + 1, interval: interval)
            }
        }
    }
}
