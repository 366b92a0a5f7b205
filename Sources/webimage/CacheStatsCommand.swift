import ArgumentParser
import WebImage

/// `webimage cache stats`: count, size, access range and limits.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print the number of entries, their size on disk, the oldest and newest access, and the limits."
    )

    @OptionGroup var options: CacheOptions

    func run() throws {
        let cache = options.makeCache()
        var report = CacheReport(directory: cache.directory)
        report.describe(cache.statistics())
        report.emit(json: options.json) { r in
            """
            directory: \(r.directory)
            entries: \(r.count ?? 0)
            size: \(formatBytes(r.totalSize))
            oldest access: \(r.oldestAccess ?? "-")
            newest access: \(r.newestAccess ?? "-")
            max size: \(r.maxSize == 0 ? "none" : formatBytes(r.maxSize))
            max age: \(formatAge(r.maxAge))
            """
        }
    }
}
