import NIOCore
import NIOHTTP1

/// Reads each request of one connection, records it and hands it to its route.
///
/// Lives on the connection's event loop only; pipelining order is kept by `HTTPServerPipelineHandler` before it.
/// Over HTTP/2 there is one per stream, behind the codec that turns the stream's frames into HTTP/1 parts.
final class TestHTTPChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let routes: TestHTTPRoutes
    private let log: TestHTTPRequestLog
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(routes: TestHTTPRoutes, log: TestHTTPRequestLog) {
        self.routes = routes
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let buffer):
            let room = TestHTTPRequest.maximumBodySize - body.count
            if room > 0 { body += buffer.readableBytesView.prefix(room) }
        case .end:
            guard let head else { return }
            self.head = nil
            dispatch(head, channel: context.channel)
        }
    }

    private func dispatch(_ head: HTTPRequestHead, channel: any Channel) {
        let headers = head.headers.map { ($0.name, $0.value) }
        let request = TestHTTPRequest(method: head.method.rawValue, uri: head.uri, headers: headers, body: body)
        body = []
        log.record(path: request.path, headers: headers)
        // An HTTP/2 stream carries one request; the connection stays open after it, whatever `isKeepAlive` (an
        // HTTP/1 notion) says for version 2.
        let keepAlive = head.version.major >= 2 || head.isKeepAlive
        let responder = TestHTTPResponder(channel: channel, keepAlive: keepAlive, method: request.method)
        if let (routed, handler) = routes.route(request) {
            handler(routed, responder)
        } else {
            responder.respond(status: 404, text: "no route for \(request.path)\n")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
