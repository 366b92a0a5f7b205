import ArgumentParser
import Foundation
import WebImage

/// `webimage cache stats`: count, size, access range and limits.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print the number of entries, their size on disk, the oldest and newest access, and the limits.",
        discussion: """
            The limits are those the cache was last given with --max-size, --max-age or --expire-type (by cache \
            put or trim, which remember them in the directory), else the defaults; options given here show the \
            cache as those limits would make it. Fails (exit status 1) when the directory does not exist.
            """
    )

    @OptionGroup var options: CacheOptions

    func run() throws {
        let cache = options.makeCache()
        var report = CacheReport(directory: cache.directory)
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: cache.directory.path, isDirectory: &isDirectory) {
            report.fail(WebImageError(.diskIO, "no cache at \(cache.directory.path): the directory does not exist"))
        } else if !isDirectory.boolValue {
            report.fail(WebImageError(.diskIO, "no cache at \(cache.directory.path): it is a file, not a directory"))
        } else {
            report.describe(cache.statistics())
            report.expireType = options.limits.expireType ?? CacheOptions.ExpireTypeArgument.access.rawValue
        }
        report.emit(json: options.json) { r in
            """
            directory: \(r.directory)
            entries: \(r.count ?? 0)
            size: \(formatBytes(r.totalSize))
            oldest access: \(r.oldestAccess ?? "-")
            newest access: \(r.newestAccess ?? "-")
            max size: \(r.maxSize == 0 ? "none" : formatBytes(r.maxSize))
            max age: \(formatAge(r.maxAge))
            expire by: \(r.expireType ?? "-")
            """
        }
        if !report.ok { throw ExitCode(1) }
    }
}
