import ArgumentParser
import Foundation
import WebImage

/// `webimage cache put KEY FILE...`: store files' bytes under keys; for tests of concurrent writers.
struct CachePutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Store each FILE's bytes under its KEY (pairs of arguments).",
        discussion: """
            With --repeat N the pairs are stored N times over, in order, so that several processes can write the \
            same keys at the same time.
            """
    )

    @Argument(help: "KEY FILE pairs.")
    var pairs: [String]

    @Option(name: .long, help: "Store the pairs this many times over (at least 1).")
    var `repeat` = 1

    @Flag(name: .long, help: "Flush each write to the device (fsync) before it becomes visible.")
    var sync = false

    @OptionGroup var options: CacheOptions

    func validate() throws {
        guard !pairs.isEmpty, pairs.count % 2 == 0 else { throw ValidationError("give KEY FILE pairs") }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let cache = options.makeCache(syncsWrites: sync)
        var report = CacheReport(directory: cache.directory)
        var writes = 0
        var bytes = 0
        do {
            var items: [(key: String, data: Data)] = []
            for index in stride(from: 0, to: pairs.count, by: 2) {
                items.append((pairs[index], try readFile(pairs[index + 1])))
            }
            for _ in 0..<`repeat` {
                for item in items {
                    try cache.setData(item.data, forKey: item.key)
                    writes += 1
                    bytes += item.data.count
                }
            }
        } catch {
            report.fail(error)
        }
        report.writes = writes
        report.bytes = bytes
        report.count = cache.totalCount
        options.rememberLimits()
        report.emit(json: options.json) { r in
            "stored \(r.writes ?? 0) writes, \(formatBytes(r.bytes)), in \(r.directory)"
        }
        if !report.ok { throw ExitCode(1) }
    }
}
