import ArgumentParser
import Foundation
import Logging
import WebImage
import WebImageRedis

/// The options of the commands that load through an image manager (`fetch`, `prefetch`): the cache, the
/// downloader's settings and how many loads run at once.
struct ManagerOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The cache root (default: $XDG_CACHE_HOME/swift-web-image or ~/.cache/swift-web-image).")
    var cacheDirectory: String?

    @Option(name: .long, help: "The cache's namespace: its directory under the root.")
    var namespace = "default"

    @Option(help: "Loads at once.")
    var concurrency = 6

    @Option(name: .customLong("header"), help: "A header sent with every request, as 'Name: value'; repeatable.")
    var headers: [String] = []

    @Option(help: "Seconds allowed for each download.")
    var timeout: Double = 15

    @Flag(name: .customLong("public-only"), help: "Connect to public addresses only, for each URL and redirect: no loopback, private, link-local or other internal address.")
    var publicOnly = false

    @Option(name: .customLong("allow-host"), help: "With --public-only, a host that may be reached at an internal address; repeatable.")
    var internalHosts: [String] = []

    @Option(name: .customLong("shared-cache"), help: ArgumentHelp(
        "A Redis server shared with other processes, as redis://[:PASSWORD@]HOST[:PORT][/DB]: a tier behind the disk cache, and one load per URL across the processes that use it.",
        valueName: "url"
    ))
    var sharedCache: String?

    @Option(name: .customLong("shared-cache-ca"), help: ArgumentHelp(
        "With a rediss:// --shared-cache: a PEM file of the certificates to trust (a CA, or the server's self-signed certificate) instead of the system's.",
        valueName: "file"
    ))
    var sharedCacheCertificates: String?

    @Option(name: .customLong("shared-cache-claim-ttl"), help: ArgumentHelp(
        "With --shared-cache: seconds a claim on a URL lasts unless its holder stores it first (what a crashed holder costs the others); the fleet wait is twice as long.",
        valueName: "seconds"
    ))
    var sharedCacheClaimTimeToLive: Double?

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be 1 or more") }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0") }
        guard !namespace.isEmpty, !namespace.contains("/"), namespace != ".", namespace != ".." else {
            throw ValidationError("--namespace must be one path component")
        }
        guard internalHosts.isEmpty || publicOnly else { throw ValidationError("--allow-host applies only with --public-only") }
        for header in headers where !header.contains(":") {
            throw ValidationError("--header '\(header)' is not 'Name: value'")
        }
        if let sharedCache {
            let config: RedisImageCacheConfig
            do {
                config = try RedisImageCacheConfig(url: sharedCache)
            } catch {
                throw ValidationError("--shared-cache: \(error.message)")
            }
            guard sharedCacheCertificates == nil || config.tls != nil else {
                throw ValidationError("--shared-cache-ca applies only to a rediss:// --shared-cache")
            }
            if let seconds = sharedCacheClaimTimeToLive, !(seconds > 0 && seconds <= 3600) {
                throw ValidationError("--shared-cache-claim-ttl must be more than 0 and at most 3600")
            }
        } else if sharedCacheCertificates != nil || sharedCacheClaimTimeToLive != nil {
            throw ValidationError("--shared-cache-ca and --shared-cache-claim-ttl apply only with --shared-cache")
        }
    }

    /// The cache these options name: the local one, with the shared tier behind it when one is given. The
    /// shared tier's keys are under the namespace, and its warnings go to standard error.
    private func makeCache(coder: ImageCoderRegistry) -> (cache: any ImageCaching, drain: @Sendable () -> Void) {
        let root = cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let local = ImageCache(namespace: namespace, root: root, coder: coder)
        guard let sharedCache, var config = try? RedisImageCacheConfig(url: sharedCache) else {
            return (local, { Self.wait { local.flush(completion: $0) } })
        }
        config.keyPrefix = "swift-web-image:\(namespace):"
        if let sharedCacheCertificates { config.tls?.trustedCertificatesFile = sharedCacheCertificates }
        if let seconds = sharedCacheClaimTimeToLive {
            config.claimTimeToLive = .milliseconds(Int64(seconds * 1000))
            config.maxFleetWait = config.claimTimeToLive * 2
        }
        var logger = Logger(label: "webimage.shared-cache") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let shared = RedisImageCache(config: config, coder: coder, logger: logger)
        // The local fills of what Redis answered, then the claims passed and the stores sent.
        let drain: @Sendable () -> Void = {
            Self.wait { local.flush(completion: $0) }
            Self.wait { shared.flush(completion: $0) }
        }
        return (ImageCaches(tiers: [local, shared]), drain)
    }

    /// Blocks until `start` calls its completion, or 30 s have passed.
    private static func wait(_ start: (@escaping @Sendable () -> Void) -> Void) {
        let done = DispatchSemaphore(value: 0)
        start { done.signal() }
        _ = done.wait(timeout: .now() + 30)
    }

    /// A manager over the cache these options name and a downloader with their settings; invalidate the
    /// downloader when done, and call `drain` before the process ends, which waits (at most 30 s for each tier)
    /// for the cache writes and shared-tier commands the loads left under way.
    func makeManager() -> (manager: ImageManager, downloader: ImageDownloader, drain: @Sendable () -> Void) {
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = concurrency
        config.downloadTimeout = timeout
        if publicOnly {
            config.addressPolicy = .publicOnly
            config.addressPolicy.internalHosts = Set(internalHosts)
        }
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            let name = String(parts[0]).trimmingCharacters(in: .whitespaces)
            let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
            config.httpHeaders.removeAll { $0.name.lowercased() == name.lowercased() }
            config.httpHeaders.append(HTTPHeader(name: name, value: value))
        }
        let registry = ImageCoderRegistry.shared
        let downloader = ImageDownloader(config: config, coder: registry)
        let (cache, drain) = makeCache(coder: registry)
        let loader = ImageLoaders([DataURLImageLoader(coder: registry), downloader])
        return (ImageManager(cache: cache, loader: loader, coder: registry), downloader, drain)
    }

    /// The URLs of the arguments and of the list file.
    static func urlList(_ arguments: [String], file: String?) throws -> [String] {
        var list = arguments
        if let file { list += try FetchCommand.readList(file) }
        guard !list.isEmpty else { throw ValidationError("no URLs: pass them as arguments or with -i FILE") }
        return list
    }
}
