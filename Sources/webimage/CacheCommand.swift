import ArgumentParser

/// `webimage cache ...`: inspect and maintain a disk cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and maintain a disk cache: stats, clear, trim, path; put and verify for testing.",
        discussion: """
            The cache is DIR/NAMESPACE, where DIR is --cache-dir (default: $XDG_CACHE_HOME/swift-web-image, else \
            ~/.cache/swift-web-image) and NAMESPACE is --namespace (default: default). Sizes are bytes allocated on \
            disk. With --json each command prints JSON objects, one per line. The exit status is 0 on success, 1 \
            on failure.
            """,
        subcommands: [
            CacheStatsCommand.self, CacheClearCommand.self, CacheTrimCommand.self, CachePathCommand.self,
            CachePutCommand.self, CacheVerifyCommand.self,
        ]
    )
}
