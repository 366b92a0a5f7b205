#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// A real HTTP server on 127.0.0.1 for the tests, with routes that misbehave on purpose: plain HTTP/1.1, or HTTPS
/// (HTTP/1.1 only, or HTTP/2 where the client offers it) with a self-signed certificate (see ``TLSMode``).
///
/// ```swift
/// try await withTestHTTPServer { server in
///     let url = server.url("/image/photo.jpg")
///     // ... load url ...
///     #expect(server.requestCount(forPath: "/image/photo.jpg") == 1)
/// }
/// ```
///
/// It listens on a port the system picks, runs one event loop thread, keeps connections alive between requests
/// and serves many connections at once. Over HTTP/2 every stream is one request, served by the same routes. Every handler runs on the event loop and waits with scheduled tasks, never
/// by blocking. The standard routes are listed in `TestHTTPRoutes+Content.swift`, `+Faults`, `+Redirects`, `+Trickle` and
/// `+Validation`; tests add their own through ``routes``.
///
/// Threading: every member may be called from any thread. ``shutdown()`` closes every connection, stops the
/// thread and may be called more than once.
public final class TestHTTPServer: Sendable {
    /// The routing table; tests may register more routes while the server runs.
    public let routes: TestHTTPRoutes
    /// `http://127.0.0.1:PORT`, or `https://127.0.0.1:PORT` with TLS.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: Int
    /// How the server speaks: plain text, or TLS with or without HTTP/2.
    public let tls: TLSMode

    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let log: TestHTTPRequestLog
    private let connections: TestHTTPConnectionSet

    private init(
        routes: TestHTTPRoutes, tls: TLSMode, group: MultiThreadedEventLoopGroup, serverChannel: any Channel,
        port: Int, log: TestHTTPRequestLog, connections: TestHTTPConnectionSet
    ) {
        self.routes = routes
        self.tls = tls
        self.group = group
        self.serverChannel = serverChannel
        self.port = port
        // A dotted address and a number always make a valid URL.
        self.baseURL = URL(string: "\(tls.scheme)://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
        self.log = log
        self.connections = connections
    }

    /// Starts a server on 127.0.0.1 with a port the system picks.
    ///
    /// ```swift
    /// let server = try await TestHTTPServer.start(tls: .http2)   // https://127.0.0.1:PORT, h2 or http/1.1
    /// ```
    ///
    /// - Parameters:
    ///   - routes: The routing table; the standard routes by default.
    ///   - tls: Plain HTTP/1.1 by default; ``TLSMode/http1`` or ``TLSMode/http2`` for HTTPS with the committed
    ///     self-signed certificate.
    /// - Throws: When the certificate cannot be read (`"tls"`) or the socket cannot be bound (`"bind"`).
    public static func start(
        routes: TestHTTPRoutes = .standard(), tls: TLSMode = .off
    ) async throws(TestHTTPServerError) -> TestHTTPServer {
        let sslContext = try tls.makeSSLContext()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = TestHTTPRequestLog()
        let connections = TestHTTPConnectionSet()
        let pipeline = Pipeline(routes: routes, log: log, tls: tls, sslContext: sslContext)
        let channel: any Channel
        do {
            channel = try await bootstrap(group: group, pipeline: pipeline, connections: connections)
                .bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw TestHTTPServerError("bind", error)
        }
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            try? await group.shutdownGracefully()
            throw TestHTTPServerError("bind", message: "no local port")
        }
        return TestHTTPServer(
            routes: routes, tls: tls, group: group, serverChannel: channel, port: port, log: log,
            connections: connections)
    }

    private static func bootstrap(
        group: MultiThreadedEventLoopGroup, pipeline: Pipeline, connections: TestHTTPConnectionSet
    ) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 2048)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard connections.insert(channel) else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in connections.remove(channel) }
                return pipeline.configure(channel)
            }
    }

    /// The URL of `pathAndQuery` (`"/image/photo.jpg"`, `"/drip?bytes=10"`) on this server.
    public func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        guard let url = URL(string: "\(tls.scheme)://127.0.0.1:\(port)\(suffix)") else {
            preconditionFailure("not a valid path and query: \(pathAndQuery)")
        }
        return url
    }

    /// How many requests have come for `path` (without the query).
    public func requestCount(forPath path: String) -> Int {
        log.count(forPath: path)
    }

    /// How many requests have come, for every path.
    public var totalRequestCount: Int { log.total }

    /// The header fields of the last request for `path` (without the query), in the order sent; nil when none came.
    public func lastRequestHeaders(forPath path: String) -> [(String, String)]? {
        log.lastHeaders(forPath: path)
    }

    /// Forgets every request seen so far.
    public func resetRequestLog() {
        log.reset()
    }

    /// The number of client connections open now.
    public var openConnectionCount: Int { connections.count }

    /// The number of client connections accepted since the server started, closed ones included: with HTTP/2
    /// multiplexing or keep-alive, fewer than the requests.
    public var acceptedConnectionCount: Int { connections.acceptedCount }

    /// Stops listening, closes every connection (stalled responses included) and stops the event loop thread.
    /// Later calls return at once.
    public func shutdown() async throws(TestHTTPServerError) {
        guard let open = connections.closeAll() else { return }
        do {
            try? await serverChannel.close()
            for channel in open { try? await channel.close() }
            try await group.shutdownGracefully()
        } catch {
            throw TestHTTPServerError("shutdown", error)
        }
    }
}

/// Runs `body` with a server that is shut down when `body` returns or throws.
public func withTestHTTPServer<Result>(
    routes: TestHTTPRoutes = .standard(),
    tls: TestHTTPServer.TLSMode = .off,
    _ body: (TestHTTPServer) async throws -> Result
) async throws -> Result {
    let server = try await TestHTTPServer.start(routes: routes, tls: tls)
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}
