/// The routes that misbehave on purpose. Waits are scheduled on the event loop; nothing blocks it.
///
/// - `/drip?bytes=N&chunks=K&interval_ms=M[&length=0|1]`: N bytes in K parts M ms apart; with Content-Length when
///   `length` is 1 (the default), chunked when 0. The first part goes at once.
/// - `/stall?after=N[&length=L]`: Content-Length L (default 2N) and N bytes, then nothing until the client or the
///   server closes the connection.
/// - `/reset?after=N`: Content-Length 2N and N bytes, then a TCP reset.
/// - `/short?length=L&send=N`: Content-Length L but only N bytes (N < L), then a plain close.
/// - `/huge-length`: Content-Length 10 GiB and 1 KiB of body, then a stall.
/// - `/slow-headers?delay_ms=M`: nothing for M ms, then a short text body.
///
/// Bodies are `payloadByte(at:)`, so a client can check what it received. Over HTTP/2 the reset and the close
/// reset the request's stream (RST_STREAM) and leave the connection open.
extension TestHTTPRoutes {
    /// The byte at `offset` of every fault route's body.
    public static func payloadByte(at offset: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: offset &* 31 &+ 7)
    }

    static func payload(_ range: Range<Int>) -> [UInt8] {
        range.map(payloadByte(at:))
    }

    func registerFaultRoutes() {
        register("/drip") { request, responder in
            let total = max(0, request.int("bytes", default: 1024))
            let chunks = max(1, request.int("chunks", default: 4))
            let interval = max(0, request.int("interval_ms", default: 100))
            var headers = [("Content-Type", "application/octet-stream")]
            if request.int("length", default: 1) != 0 { headers.append(("Content-Length", String(total))) }
            responder.writeHead(status: 200, headers: headers)
            Self.drip(responder, total: total, chunks: chunks, index: 0, interval: interval)
        }
        register("/stall") { request, responder in
            let after = max(0, request.int("after", default: 1024))
            let length = max(after, request.int("length", default: after * 2))
            responder.writeHead(
                status: 200,
                headers: [("Content-Type", "application/octet-stream"), ("Content-Length", String(length))])
            responder.writeBody(Self.payload(0..<after))
        }
        register("/reset") { request, responder in
            let after = max(0, request.int("after", default: 1024))
            responder.writeHead(
                status: 200,
                headers: [("Content-Type", "application/octet-stream"), ("Content-Length", String(max(1, after * 2)))])
            responder.writeBody(Self.payload(0..<after))
            // A short pause lets the bytes reach the client before the reset, which may discard unsent data.
            responder.after(milliseconds: 20) { responder.reset() }
        }
        register("/short") { request, responder in
            let length = max(1, request.int("length", default: 2048))
            let send = min(max(0, request.int("send", default: length / 2)), length - 1)
            responder.writeHead(
                status: 200,
                headers: [("Content-Type", "application/octet-stream"), ("Content-Length", String(length))])
            responder.writeBody(Self.payload(0..<send))
            responder.close()
        }
        register("/huge-length") { _, responder in
            responder.writeHead(
                status: 200,
                headers: [("Content-Type", "application/octet-stream"), ("Content-Length", String(10 << 30))])
            responder.writeBody(Self.payload(0..<1024))
        }
        register("/slow-headers") { request, responder in
            let delay = max(0, request.int("delay_ms", default: 1000))
            responder.after(milliseconds: delay) {
                responder.respond(status: 200, text: "slow\n")
            }
        }
    }

    private static func drip(_ responder: TestHTTPResponder, total: Int, chunks: Int, index: Int, interval: Int) {
        let start = total * index / chunks
        let end = total * (index + 1) / chunks
        responder.writeBody(payload(start..<end))
        guard index + 1 < chunks else {
            responder.end()
            return
        }
        responder.after(milliseconds: interval) {
            drip(responder, total: total, chunks: chunks, index: index + 1, interval: interval)
        }
    }
}
