import NIOHTTP1
import NIOHTTPCompression
import WebImageCore

/// The routes that serve bodies as they should be served.
///
/// - `/image/<name>[?delay_ms=M][&first_delay_ms=F]`: a fixture (``TestHTTPFixtureCatalog``), its Content-Type from
///   the extension, Content-Length; after M ms (default 0) when asked, or after F ms for the first request with this
///   path and query only (a slow origin that a later request finds fast).
/// - `/generated?bytes=N[&seed=S][&delay_ms=M]`: N deterministic pseudo-random bytes (SplitMix64 from S, default
///   1, each output word little-endian), after M ms (default 0, as a network's latency would add), as
///   `application/octet-stream`. Not an image: this target cannot encode images; real images come from `/image/`.
/// - `/status/<code>`: that status with a short text body (none for 1xx, 204 and 304).
/// - `/chunked/<name>`: the fixture as a chunked body in four parts, without Content-Length.
/// - `/content-type/<name>?type=T`: the fixture served with Content-Type T (header left out when T is empty).
/// - `/gzip/<name>`: the fixture compressed by NIO's `HTTPResponseCompressor` when the request's Accept-Encoding
///   allows it, else as it is, chunked either way; `Vary: Accept-Encoding` either way. The compressor picks gzip when only gzip is
///   accepted (or it weighs more) and deflate when both are listed with equal weight.
extension TestHTTPRoutes {
    /// The response header that marks a response for compression; the compressor removes it.
    static let compressMarker = "x-test-server-compress"

    func registerContentRoutes(_ fixtures: TestHTTPFixtureCatalog) {
        let delayedOnce = Locked(Set<String>())
        registerPrefix("/image/") { request, responder in
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            var delay = max(0, min(request.int("delay_ms", default: 0), 60_000))
            let firstDelay = max(0, min(request.int("first_delay_ms", default: 0), 60_000))
            let identity = request.path + "?" + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            if firstDelay > 0, delayedOnce.withLock({ $0.insert(identity).inserted }) { delay = firstDelay }
            guard delay > 0 else {
                return responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes)
            }
            responder.after(milliseconds: delay) {
                responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes)
            }
        }
        let generated = TestHTTPGeneratedBodies()
        register("/generated") { request, responder in
            let count = max(0, min(request.int("bytes", default: 1024), 256 << 20))
            let bytes = generated.body(count: count, seed: UInt64(max(0, request.int("seed", default: 1))))
            let delay = max(0, min(request.int("delay_ms", default: 0), 60_000))
            guard delay > 0 else {
                return responder.respond(status: 200, headers: [("Content-Type", "application/octet-stream")], body: bytes)
            }
            responder.after(milliseconds: delay) {
                responder.respond(status: 200, headers: [("Content-Type", "application/octet-stream")], body: bytes)
            }
        }
        registerPrefix("/status/") { request, responder in
            guard let code = Int(request.remainder), (100...999).contains(code) else {
                return responder.respond(status: 400, text: "bad status \(request.remainder)\n")
            }
            if TestHTTPResponder.statusAllowsBody(code) {
                responder.respond(status: code, text: "status \(code)\n")
            } else {
                responder.respond(status: code)
            }
        }
        registerPrefix("/chunked/") { request, responder in
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            responder.writeHead(status: 200, headers: [("Content-Type", entry.contentType)])
            let part = max(1, (entry.bytes.count + 3) / 4)
            var start = 0
            while start < entry.bytes.count {
                let end = min(start + part, entry.bytes.count)
                responder.writeBody(entry.bytes[start..<end])
                start = end
            }
            responder.end()
        }
        registerPrefix("/content-type/") { request, responder in
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            let type = request.query["type"] ?? "application/octet-stream"
            responder.respond(status: 200, headers: type.isEmpty ? [] : [("Content-Type", type)], body: entry.bytes)
        }
        registerPrefix("/gzip/") { request, responder in
            guard let entry = fixtures.entry(request.remainder) else {
                return responder.respond(status: 404, text: "no fixture \(request.remainder)\n")
            }
            // Without Content-Length: the compressor does not correct a length that was flushed with the head.
            let headers = [("Content-Type", entry.contentType), ("Vary", "Accept-Encoding"), (Self.compressMarker, "1")]
            responder.writeHead(status: 200, headers: headers)
            responder.writeBody(entry.bytes)
            responder.end()
        }
    }

    /// For `HTTPResponseCompressor`: compress only the responses that carry the marker, and strip the marker.
    static func compressionIntent(
        _ head: inout HTTPResponseHead, _ supported: Bool
    ) -> HTTPResponseCompressor.CompressionIntent {
        guard head.headers.contains(name: compressMarker) else { return .doNotCompress }
        head.headers.remove(name: compressMarker)
        return .compressIfPossible
    }
}
