#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 for the tests, with routes that misbehave on purpose.
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
/// and serves many connections at once. Every handler runs on the event loop and waits with scheduled tasks, never
/// by blocking. The standard routes are listed in `TestHTTPRoutes+Content.swift`, `+Faults`, `+Redirects` and
/// `+Validation`; tests add their own through ``routes``.
///
/// Threading: every member may be called from any thread. ``shutdown()`` closes every connection, stops the
/// thread and may be called more than once.
public final class TestHTTPServer: Sendable {
    /// The routing table; tests may register more routes while the server runs.
    public let routes: TestHTTPRoutes
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: Int

    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let log: TestHTTPRequestLog
    private let connections: TestHTTPConnectionSet

    private init(
        routes: TestHTTPRoutes, group: MultiThreadedEventLoopGroup, serverChannel: any Channel, port: Int,
        log: TestHTTPRequestLog, connections: TestHTTPConnectionSet
    ) {
        self.routes = routes
        self.group = group
        self.serverChannel = serverChannel
        self.port = port
        // A dotted address and a number always make a valid URL.
        self.baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
        self.log = log
        self.connections = connections
    }

    /// Starts a server on 127.0.0.1 with a port the system picks.
    ///
    /// - Parameter routes: The routing table; the standard routes by default.
    /// - Throws: When the socket cannot be bound.
    public static func start(routes: TestHTTPRoutes = .standard()) async throws(TestHTTPServerError) -> TestHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = TestHTTPRequestLog()
        let connections = TestHTTPConnectionSet()
        let channel: any Channel
        do {
            channel = try await bootstrap(group: group, routes: routes, log: log, connections: connections)
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
            routes: routes, group: group, serverChannel: channel, port: port, log: log, connections: connections)
    }

    private static func bootstrap(
        group: MultiThreadedEventLoopGroup, routes: TestHTTPRoutes, log: TestHTTPRequestLog,
        connections: TestHTTPConnectionSet
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
                do {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
                    try sync.addHandler(HTTPResponseCompressor(responseCompressionPredicate: TestHTTPRoutes.compressionIntent))
                    try sync.addHandler(TestHTTPChannelHandler(routes: routes, log: log))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
    }

    /// The URL of `pathAndQuery` (`"/image/photo.jpg"`, `"/drip?bytes=10"`) on this server.
    public func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        guard let url = URL(string: "http://127.0.0.1:\(port)\(suffix)") else {
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
    _ body: (TestHTTPServer) async throws -> Result
) async throws -> Result {
    let server = try await TestHTTPServer.start(routes: routes)
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}
