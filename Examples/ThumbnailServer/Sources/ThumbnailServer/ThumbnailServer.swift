import ArgumentParser
import Foundation
import Hummingbird
import Logging
import WebImage
import WebImageRedis

/// A thumbnail service over the library: `GET /thumb?url=U&w=W&h=H` answers with the bytes of a thumbnail of an
/// image from an allowed host, made once, then served from the library's memory tier of encoded variants or its
/// disk cache. `GET /` answers a plain-text status. With `--shared-cache`, several servers share a Redis tier behind
/// their disks and fetch each source once between them.
@main
struct ThumbnailServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve thumbnails of images from allowed hosts, cached in memory and on disk.",
        discussion: """
            GET /thumb?url=U&w=W&h=H[&fit=fit|fill|cover][&format=jpeg|png|webp|avif] answers with the \
            thumbnail's bytes, Content-Type, ETag and Cache-Control, or 304 to a matching If-None-Match. Without \
            format, WebP (or AVIF, with --prefer-avif) is sent to clients whose Accept field takes it, and the \
            image's own format to the others. \
            With --shared-cache, a Redis server is a tier behind the disk cache, shared by every server given the \
            same URL: a thumbnail one of them made is served by the others from Redis, and of several servers \
            missing it at once, one fetches the source and makes it while the others wait for its bytes. If Redis \
            is down, the servers go on without it and say so on standard error. \
            GET / answers with a plain-text status. SIGTERM or SIGINT stops the server once the requests in \
            flight have finished.
            """
    )

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "The address to listen on.")
    var hostname = "127.0.0.1"

    @Option(help: "The directory of the disk cache.")
    var cacheDir: String

    @Option(help: "A host whose images may be fetched (repeat for several); no other host is.")
    var allowHost: [String] = []

    @Option(help: "The most pixels a thumbnail's width or height may have.")
    var maxSide = 2048

    @Flag(inversion: .prefixedNo, help: "Keep each source's bytes on disk beside its thumbnails, so that other sizes of it are made without fetching it again.")
    var storeOriginals = true

    @Option(name: .customLong("shared-cache"), help: ArgumentHelp(
        "A Redis server shared with other servers, as redis://[:PASSWORD@]HOST[:PORT][/DB]: a tier behind the disk cache, and one fetch per source across the servers that use it.",
        valueName: "url"
    ))
    var sharedCache: String?

    @Flag(help: "Send AVIF to the clients whose Accept field takes it, before WebP: smaller files, about twice the encoding time on a cold request.")
    var preferAVIF = false

    func validate() throws {
        guard !allowHost.isEmpty else { throw ValidationError("name at least one --allow-host") }
        guard (1...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port") }
        if let sharedCache {
            do {
                _ = try RedisImageCacheConfig(url: sharedCache)
            } catch {
                throw ValidationError("--shared-cache: \(error.message)")
            }
        }
    }

    func run() async throws {
        let registry = ImageCoderRegistry.shared
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = 16
        config.maxConnectionsPerHost = 16
        // The route refuses other hosts at once; the policy holds every redirect to the same list.
        config.addressPolicy = ImageAddressPolicy(allowedHosts: Set(allowHost))
        let downloader = ImageDownloader(config: config, coder: registry)
        let cache = makeCache(coder: registry)
        let manager = ImageManager(cache: cache, loader: downloader, coder: registry)
        let thumbnails = ThumbnailRoute(
            manager: manager,
            allowedHosts: Set(allowHost.map { $0.lowercased() }),
            maxSide: maxSide,
            canEncode: { registry.canEncode(to: $0) },
            storesOriginals: storeOriginals,
            prefersAVIF: preferAVIF
        )

        let router = Router()
        router.get("/") { _, _ in
            "swift-web-image thumbnail server: ok\n"
        }
        router.get("/thumb") { request, _ in
            await thumbnails.respond(to: request)
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(hostname, port: port), serverName: "ThumbnailServer")
        )
        // Requests in flight finish on SIGTERM or SIGINT before the service returns.
        try await app.runService()
        downloader.invalidate()
    }

    /// The disk cache (with the library's memory tier), and behind it the shared Redis tier when one is given:
    /// its keys under the server's own prefix, its warnings (Redis failing, the breaker opening) on standard error.
    private func makeCache(coder: ImageCoderRegistry) -> any ImageCaching {
        let local = ImageCache(namespace: "thumbnails", root: URL(fileURLWithPath: cacheDir, isDirectory: true), coder: coder)
        guard let sharedCache, var config = try? RedisImageCacheConfig(url: sharedCache) else { return local }
        config.keyPrefix = "thumbnail-server:"
        var logger = Logger(label: "thumbnail-server.shared-cache") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let shared = RedisImageCache(config: config, coder: coder, logger: logger)
        return ImageCaches(tiers: [local, shared])
    }
}
