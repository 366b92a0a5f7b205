import ArgumentParser
import WebImage

/// `webimage cache clear`: remove every entry.
struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every entry of the cache.",
        discussion: """
            Temporary files of writes in progress in other processes stay. Fails (exit status 1) when the \
            directory cannot be read or an entry cannot be removed, with the system's error.
            """
    )

    @OptionGroup var options: CacheOptions

    func run() throws {
        let cache = options.makeCache()
        var report = CacheReport(directory: cache.directory)
        let before = cache.statistics()
        do {
            try cache.removeAll()
        } catch {
            report.fail(error)
        }
        let after = cache.statistics()
        report.describe(after)
        report.removed = before.count - after.count
        report.freed = before.totalSize - after.totalSize
        report.emit(json: options.json) { r in
            "removed \(r.removed ?? 0) entries, \(formatBytes(r.freed)) from \(r.directory)"
        }
        if !report.ok { throw ExitCode(1) }
    }
}
