import ArgumentParser
import Foundation
import WebImage

/// The options every `webimage cache` command takes: where the cache is, its limits, and the output form.
struct CacheOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The cache root (default: $XDG_CACHE_HOME/swift-web-image or ~/.cache/swift-web-image).")
    var cacheDirectory: String?

    @Option(name: .long, help: "The cache's namespace: its directory under the root.")
    var namespace = "default"

    @Option(name: .customLong("max-size"), help: "Size limit in bytes, 0 for none (default: the limit last given for this cache, else 1 GiB).")
    var maxSize: Int?

    @Option(name: .customLong("max-age"), help: "Age limit in seconds, negative for none (default: the limit last given for this cache, else 7 days).")
    var maxAge: Double?

    @Option(name: .customLong("expire-type"), help: "The date entries expire by: access, modification or change (default: the one last given for this cache, else access).")
    var expireType: ExpireTypeArgument?

    @Flag(name: .long, help: "Print JSON objects, one per line, instead of text.")
    var json = false

    enum ExpireTypeArgument: String, ExpressibleByArgument, CaseIterable {
        case access, modification, change
    }

    func validate() throws {
        if let maxSize, maxSize < 0 { throw ValidationError("--max-size must be 0 or more") }
        guard !namespace.isEmpty, !namespace.contains("/"), namespace != ".", namespace != ".." else {
            throw ValidationError("--namespace must be one path component")
        }
    }

    /// The cache's directory: the namespace under the root.
    var directory: URL {
        let root = cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? DiskCache.defaultRootDirectory
        return root.appendingPathComponent(namespace, isDirectory: true)
    }

    /// The limits given as options.
    var givenLimits: CacheLimits {
        CacheLimits(maxSize: maxSize, maxAge: maxAge, expireType: expireType?.rawValue)
    }

    /// The cache's limits: those given as options, else those remembered in its directory; a limit in neither
    /// is the default.
    var limits: CacheLimits {
        givenLimits.merged(over: CacheLimits.stored(in: directory))
    }

    /// The cache these options describe, with ``limits``.
    func makeCache(syncsWrites: Bool = false) -> DiskCache {
        let limits = self.limits
        var configuration = DiskCache.Configuration()
        if let maxSize = limits.maxSize { configuration.maxSize = maxSize }
        if let maxAge = limits.maxAge { configuration.maxAge = maxAge }
        switch limits.expireType.flatMap(ExpireTypeArgument.init(rawValue:)) ?? .access {
        case .access: configuration.expireType = .accessDate
        case .modification: configuration.expireType = .modificationDate
        case .change: configuration.expireType = .changeDate
        }
        configuration.syncsWrites = syncsWrites
        return DiskCache(directory: directory, configuration: configuration)
    }

    /// Remembers the limits given as options in the cache's directory, over those it had, so that later
    /// commands use them; does nothing when none was given or there is no directory (nothing was written), and
    /// leaves a directory that refuses the file as it was: the limits are a convenience, not the cache's.
    func rememberLimits() {
        guard !givenLimits.isEmpty, FileManager.default.fileExists(atPath: directory.path) else { return }
        try? limits.store(in: directory)
    }
}
