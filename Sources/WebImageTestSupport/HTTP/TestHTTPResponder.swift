#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1

/// Writes one response on a connection of the test server.
///
/// A handler gets one per request. Calls may come from any thread, in the order the response needs them
/// (head, body parts, end); they are forwarded to the connection's event loop in that order. Writing after the
/// client has gone is harmless: the writes fail silently. For a `HEAD` request, body parts are dropped.
public final class TestHTTPResponder: Sendable {
    /// The connection's channel; over HTTP/2, the request's stream.
    public let channel: any Channel
    /// Whether the connection stays open after this response (HTTP/1.1 without `Connection: close`; always over
    /// HTTP/2, where the channel is the request's stream and the connection outlives it).
    public let keepAlive: Bool
    private let dropsBody: Bool

    init(channel: any Channel, keepAlive: Bool, method: String) {
        self.channel = channel
        self.keepAlive = keepAlive
        self.dropsBody = method == "HEAD"
    }

    /// The connection's event loop, for `scheduleTask`: handlers must never block it.
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// Whether the client is still connected.
    public var isActive: Bool { channel.isActive }

    /// Sends a whole response: `Content-Length` is set from `body` unless `headers` already has one.
    public func respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        var headers = headers
        if !headers.contains(where: { $0.0.lowercased() == "content-length" }), Self.statusAllowsBody(status) {
            headers.append(("Content-Length", String(body.count)))
        }
        writeHead(status: status, headers: headers)
        if !body.isEmpty { writeBody(body) }
        end()
    }

    /// Sends a whole response with a short text body.
    public func respond(status: Int, headers: [(String, String)] = [], text: String) {
        respond(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array(text.utf8))
    }

    /// Sends the head. Without `Content-Length` the body goes chunked.
    public func writeHead(status: Int, headers: [(String, String)]) {
        var head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status))
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if !keepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        channel.writeAndFlush(HTTPServerResponsePart.head(head), promise: nil)
    }

    /// Sends a part of the body.
    public func writeBody(_ bytes: some Sequence<UInt8>) {
        guard !dropsBody else { return }
        let buffer = channel.allocator.buffer(bytes: bytes)
        guard buffer.readableBytes > 0 else { return }
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }

    /// Ends the response; closes the connection when it is not kept alive.
    public func end() {
        let channel = self.channel
        let keepAlive = self.keepAlive
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }

    /// Closes the connection once what was written has been handed to the socket, with no proper end. Over
    /// HTTP/2 it resets the request's stream instead, and the connection stays open.
    public func close() {
        channel.close(promise: nil)
    }

    /// Closes the connection with a TCP reset (`SO_LINGER` 0): the client sees the connection reset. Over HTTP/2
    /// it resets the request's stream instead, and the connection stays open.
    public func reset() {
        let channel = self.channel
        if let provider = channel as? any SocketOptionProvider {
            provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
        } else {
            channel.close(promise: nil)
        }
    }

    /// Runs `body` on the event loop after `milliseconds`, unless the client has gone by then.
    public func after(milliseconds: Int, _ body: @escaping @Sendable () -> Void) {
        let channel = self.channel
        channel.eventLoop.scheduleTask(in: .milliseconds(Int64(milliseconds))) {
            if channel.isActive { body() }
        }
    }

    static func statusAllowsBody(_ status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }
}
