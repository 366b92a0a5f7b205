import ArgumentParser
import Foundation
import WebImage

/// The options every `webimage cache` command takes: where the cache is, its limits, and the output form.
struct CacheOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The cache root (default: $XDG_CACHE_HOME/swift-web-image or ~/.cache/swift-web-image).")
    var cacheDirectory: String?

    @Option(name: .long, help: "The cache's namespace: its directory under the root.")
    var namespace = "default"

    @Option(name: .customLong("max-size"), help: "Size limit in bytes, 0 for none (default: 1 GiB).")
    var maxSize: Int?

    @Option(name: .customLong("max-age"), help: "Age limit in seconds, negative for none (default: 7 days).")
    var maxAge: Double?

    @Option(name: .customLong("expire-type"), help: "The date entries expire by: access, modification or change (default: access).")
    var expireType: ExpireTypeArgument = .access

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

    /// The cache these options describe.
    func makeCache(syncsWrites: Bool = false) -> DiskCache {
        var configuration = DiskCache.Configuration()
        if let maxSize { configuration.maxSize = maxSize }
        if let maxAge { configuration.maxAge = maxAge }
        switch expireType {
        case .access: configuration.expireType = .accessDate
        case .modification: configuration.expireType = .modificationDate
        case .change: configuration.expireType = .changeDate
        }
        configuration.syncsWrites = syncsWrites
        let root = cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        return DiskCache(namespace: namespace, root: root, configuration: configuration)
    }
}
