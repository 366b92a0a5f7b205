import ArgumentParser
import WebImage

/// `webimage cache path [KEY]`: where the cache, or a key's file, is.
struct CachePathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print the cache directory, or the path of a key's file."
    )

    @Argument(help: "A cache key (an image URL); without it the directory is printed.")
    var key: String?

    @OptionGroup var options: CacheOptions

    func run() throws {
        let cache = options.makeCache()
        var report = CacheReport(directory: cache.directory)
        report.key = key
        report.path = key.map { cache.path(forKey: $0) } ?? cache.directory.path
        report.emit(json: options.json) { $0.path ?? "" }
    }
}
