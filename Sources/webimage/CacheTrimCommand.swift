import ArgumentParser
import WebImage

/// `webimage cache trim`: apply the age and size limits now.
struct CacheTrimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trim",
        abstract: "Remove expired entries, then the least recent ones until the cache is below half its size limit.",
        discussion: """
            The limits are --max-age and --max-size (default: 7 days and 1 GiB), by --expire-type. Temporary files \
            that killed writers left are removed too. Fails (exit status 1) when the directory cannot be read or an \
            entry cannot be removed, with the system's error.
            """
    )

    @OptionGroup var options: CacheOptions

    func run() throws {
        let cache = options.makeCache()
        var report = CacheReport(directory: cache.directory)
        let before = cache.statistics()
        do {
            try cache.applyLimits()
        } catch {
            report.fail(error)
        }
        let after = cache.statistics()
        report.describe(after)
        report.removed = before.count - after.count
        report.freed = before.totalSize - after.totalSize
        options.rememberLimits()
        report.emit(json: options.json) { r in
            "removed \(r.removed ?? 0) entries, \(formatBytes(r.freed)); left: \(r.count ?? 0) entries, \(formatBytes(r.totalSize))"
        }
        if !report.ok { throw ExitCode(1) }
    }
}
