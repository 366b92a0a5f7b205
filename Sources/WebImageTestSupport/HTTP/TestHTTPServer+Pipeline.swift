import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOSSL

extension TestHTTPServer {
    /// Builds the handlers of each accepted connection: TLS when asked, then HTTP/1.1 or, when ALPN settles on
    /// `h2`, HTTP/2 with one child channel per stream. Every request ends at a ``TestHTTPChannelHandler`` behind
    /// a response compressor, whichever the protocol, so that every route serves both.
    struct Pipeline: Sendable {
        let routes: TestHTTPRoutes
        let log: TestHTTPRequestLog
        let tls: TLSMode
        let sslContext: NIOSSLContext?

        /// Adds the handlers to a new connection's pipeline. Runs on the channel's event loop.
        func configure(_ channel: any Channel) -> EventLoopFuture<Void> {
            do {
                let sync = channel.pipeline.syncOperations
                if let sslContext {
                    try sync.addHandler(NIOSSLServerHandler(context: sslContext))
                }
                guard tls == .http2 else {
                    try sync.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
                    try addRequestHandlers(sync)
                    return channel.eventLoop.makeSucceededVoidFuture()
                }
                // After the handshake: HTTP/1.1 as above, or the HTTP/2 handler whose streams each get
                // `HTTP2FramePayloadToHTTP1ServerCodec` and then the handlers below.
                return channel.configureCommonHTTPServerPipeline { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try addRequestHandlers(channel.pipeline.syncOperations)
                    }
                }
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }

        /// The protocol-independent end of the pipeline, on a connection (HTTP/1.1) or a stream (HTTP/2).
        private func addRequestHandlers(_ sync: ChannelPipeline.SynchronousOperations) throws {
            try sync.addHandler(HTTPResponseCompressor(responseCompressionPredicate: TestHTTPRoutes.compressionIntent))
            try sync.addHandler(TestHTTPChannelHandler(routes: routes, log: log))
        }
    }
}
