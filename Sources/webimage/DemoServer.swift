import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import WebImage
import WebImageCore

/// The demo's image server: HTTP/1.1 on 127.0.0.1 (a port the system picks), serving the files of one directory
/// under `/samples/` and nothing else, so that the demo needs no network.
///
/// ```swift
/// let server = try await DemoServer.start(serving: samples)
/// let url = server.url(for: "photo.jpg")        // http://127.0.0.1:PORT/samples/photo.jpg
/// // ... load url ...
/// let traffic = server.traffic
/// await server.stop()
/// ```
///
/// It runs one event loop thread, keeps connections alive between requests and serves many at once; the files are
/// read into memory when it starts (see ``DemoFileHandler/Catalog``). It counts what it is asked for (every
/// request, whatever the path) and what it sends (response body bytes), so that the demo can show that concurrent
/// loads of one URL share one request.
///
/// Threading: every member may be called from any thread. ``stop()`` must be called once the demo is done,
/// whatever happened; it may be called more than once.
final class DemoServer: Sendable {
    /// The path the files are served under.
    static let prefix = "/samples/"

    /// Where the files are served from, as `http://127.0.0.1:PORT/samples/`.
    let baseURL: URL

    private let catalog: DemoFileHandler.Catalog
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let stopped = Locked(false)

    private init(baseURL: URL, catalog: DemoFileHandler.Catalog, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.baseURL = baseURL
        self.catalog = catalog
        self.group = group
        self.channel = channel
    }

    /// Reads the files of `directory` and starts serving them.
    ///
    /// - Throws: `diskIO` when the files cannot be read or there are none, `cannotConnect` when the server cannot
    ///   listen. Nothing is left running when it throws.
    static func start(serving directory: URL) async throws(WebImageError) -> DemoServer {
        let catalog = try DemoFileHandler.Catalog(directory: directory, prefix: prefix)
        guard !catalog.names.isEmpty else {
            throw WebImageError(.diskIO, "no sample images in \(directory.path)")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel: any Channel
        do {
            channel = try await bootstrap(group: group, catalog: catalog).bind(host: "127.0.0.1", port: 0).get()
        } catch {
            try? await group.shutdownGracefully()
            throw WebImageError(.cannotConnect, "cannot start the demo's server on 127.0.0.1: \(error)")
        }
        // A dotted address, a port number and a plain path always make a valid URL.
        guard let port = channel.localAddress?.port, let baseURL = URL(string: "http://127.0.0.1:\(port)\(prefix)") else {
            try? await channel.close()
            try? await group.shutdownGracefully()
            throw WebImageError(.cannotConnect, "the demo's server on 127.0.0.1 has no port")
        }
        return DemoServer(baseURL: baseURL, catalog: catalog, group: group, channel: channel)
    }

    /// Listens with HTTP/1.1 (keep-alive and pipelining, protocol errors answered with 400) and a
    /// ``DemoFileHandler`` on every connection.
    private static func bootstrap(group: MultiThreadedEventLoopGroup, catalog: DemoFileHandler.Catalog) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true)
                    try pipeline.addHandler(DemoFileHandler(catalog: catalog))
                }
            }
    }

    /// The names of the served files, sorted.
    var names: [String] { catalog.names }

    /// The URL of the file `name`.
    func url(for name: String) -> URL {
        baseURL.appendingPathComponent(name)
    }

    /// The size of the file `name` in bytes (0 for a name it does not serve).
    func size(of name: String) -> Int {
        catalog.size(of: name) ?? 0
    }

    /// What the server has seen so far: requests of any path, and body bytes sent.
    var traffic: DemoTraffic {
        catalog.traffic
    }

    /// Stops listening, closes every connection and stops the server's thread. Errors are ignored: the demo is
    /// over by then. Later calls return at once.
    func stop() async {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? await channel.close()
        // Closes the connections still open on the loop, then ends its thread.
        try? await group.shutdownGracefully()
    }
}

/// Counts of the server's traffic; subtracting two gives the traffic between them.
struct DemoTraffic: Sendable, Equatable {
    /// Requests received.
    var requests = 0
    /// Response body bytes sent.
    var bytes = 0

    static func - (later: DemoTraffic, earlier: DemoTraffic) -> DemoTraffic {
        DemoTraffic(requests: later.requests - earlier.requests, bytes: later.bytes - earlier.bytes)
    }
}
