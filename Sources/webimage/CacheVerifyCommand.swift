import ArgumentParser
import WebImage

/// `webimage cache verify`: decode every entry; for tests of torn and killed writes.
struct CacheVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Decode every entry of the cache and report the ones that do not decode.",
        discussion: """
            Each undecodable entry is reported (with --json, one object per entry), then a summary. Reading does not \
            move the entries' access dates. The exit status is 1 when an entry does not decode.
            """
    )

    @OptionGroup var options: CacheOptions

    func run() throws {
        let cache = options.makeCache()
        var checked = 0
        var undecodable = 0
        for name in cache.entryNames() {
            // An entry removed since the listing (by another process) is not a failure.
            guard let data = cache.contentsOfEntry(named: name) else { continue }
            checked += 1
            do {
                _ = try ImageCoderRegistry.shared.decode(data, options: ImageDecodeOptions())
            } catch {
                undecodable += 1
                var report = CacheReport(directory: cache.directory)
                report.entry = name
                report.bytes = data.count
                report.fail(error)
                report.emit(json: options.json) { _ in "" }
            }
        }
        var summary = CacheReport(directory: cache.directory)
        summary.ok = undecodable == 0
        summary.checked = checked
        summary.undecodable = undecodable
        summary.emit(json: options.json) { r in
            "checked \(r.checked ?? 0) entries in \(r.directory): \(r.undecodable ?? 0) undecodable"
        }
        if undecodable > 0 { throw ExitCode(1) }
    }
}
