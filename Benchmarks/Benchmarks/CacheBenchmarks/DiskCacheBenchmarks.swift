import Benchmark
import BenchmarkPairs
import Foundation
import Glibc
import WebImage

/// Benchmarks of DiskCache, each against the plain file operations it is built from, in the same run:
/// - storing 10 KB entries, against writing a temporary file and renaming it;
/// - opening a cache of 100,000 entries (until the first `totalCount` answers), against listing the directory and
///   calling `stat` on every file;
/// - the size pass a write triggers on a cache of 100,000 entries (down to half), against unlinking the same
///   number of files.
/// The files live in directories under the system's temporary directory, made in each benchmark's setup (not
/// timed) and removed in its teardown.
func diskCacheBenchmarks() {
    storeBenchmarks()
    openBenchmark()
    trimBenchmark()
}

private let entryBytes = Data((0..<10_240).map { UInt8(truncatingIfNeeded: $0 &* 7) })
private let largeCount = 100_000

/// The file names of `count` image URLs.
private func entryNames(_ count: Int) -> [String] {
    (0..<count).map { DiskCache.fileName(forKey: "https://example.com/images/\($0).jpg") }
}

private func storeBenchmarks() {
    let scratch = Scratch("store")
    let keys = (0..<1_000).map { "https://example.com/images/\($0).jpg" }
    let batch = 100

    // Keys are reused every 1,000 writes, so most writes replace an entry, as a busy cache's do.
    Benchmark(
        "Disk store 10 KB x \(batch): ours vs write + rename, alternating",
        configuration: Pairs.configuration(setup: { try scratch.create() }, teardown: { scratch.remove() })
    ) { benchmark in
        let cache = scratch.cache()
        let raw = scratch.url.appendingPathComponent("raw").path
        let start = (benchmark.currentIteration * batch) % keys.count
        Pairs.measure(benchmark) {
            for key in keys[start..<start + batch] {
                Scratch.expect { try cache.setData(entryBytes, forKey: key) }
            }
        } baseline: {
            for index in start..<start + batch {
                Scratch.atomicWrite(entryBytes, to: raw + "/" + String(index))
            }
        }
    }

    let entriesPerSecond = BenchmarkMetric.custom("entries / s", polarity: .prefersLarger, useScalingFactor: false)
    let megabytesPerSecond = BenchmarkMetric.custom("MB / s", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark(
        "Disk store 10 KB x 1000: throughput",
        configuration: .init(
            metrics: [.wallClock, entriesPerSecond, megabytesPerSecond],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(8),
            maxIterations: 50,
            setup: { try scratch.create() },
            teardown: { scratch.remove() }
        )
    ) { benchmark in
        let cache = scratch.cache()
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for key in keys {
                Scratch.expect { try cache.setData(entryBytes, forKey: key) }
            }
        }
        let seconds = Double(Pairs.microseconds(elapsed)) / 1e6
        benchmark.measurement(entriesPerSecond, Int(Double(keys.count) / seconds))
        benchmark.measurement(megabytesPerSecond, Int(Double(keys.count * entryBytes.count) / seconds / 1e6))
    }
}

private func openBenchmark() {
    let scratch = Scratch("open")
    Benchmark(
        "Disk open \(largeCount) entries: ours (init to first totalCount) vs readdir + stat, alternating",
        configuration: Pairs.configuration(
            warmupIterations: 1,
            maxDuration: .seconds(20),
            maxIterations: 20,
            setup: {
                try scratch.create()
                scratch.fill(entryNames(largeCount))
            },
            teardown: { scratch.remove() }
        )
    ) { benchmark in
        Pairs.measure(benchmark) {
            let cache = DiskCache(directory: scratch.entries)
            precondition(cache.totalCount == largeCount, "the benchmark cache lost entries")
        } baseline: {
            precondition(Scratch.listAndStat(scratch.entries.path) == largeCount, "the benchmark directory lost entries")
        }
    }
}

private func trimBenchmark() {
    let ours = Scratch("trim")
    let raw = Scratch("trim-raw")
    let names = entryNames(largeCount)
    let trigger = "https://example.com/trigger.jpg"
    Benchmark(
        "Disk trim \(largeCount) entries to half (the size pass of a write): ours vs unlinking the same files, alternating",
        configuration: Pairs.configuration(
            warmupIterations: 1,
            maxDuration: .seconds(300),
            maxIterations: 6,
            setup: {
                try ours.create()
                try raw.create()
            },
            teardown: {
                ours.remove()
                raw.remove()
            }
        )
    ) { benchmark in
        // Not timed: both directories back to the same 100,000 entries, written to the device so that neither side
        // pays for the other's writeback; the baseline's list is the trim's (oldest access first, ties by name);
        // a cache whose limit the next write crosses.
        unlink(ours.entries.path + "/" + DiskCache.fileName(forKey: trigger))
        ours.fill(names)
        raw.fill(names)
        sync()
        // The trim goes below half: 50,002 of the 100,001 entries (the written one stays).
        let victims = Scratch.oldestFirst(raw.entries.path, names).prefix(largeCount / 2 + 2)
        var configuration = DiskCache.Configuration()
        configuration.maxSize = Scratch.allocatedSize(ours.entries.path, names)
        configuration.maxAge = -1
        let cache = DiskCache(directory: ours.entries, configuration: configuration)
        precondition(cache.totalCount == largeCount, "the benchmark cache lost entries")
        var removed = 0

        Pairs.measure(benchmark) {
            Scratch.expect { try cache.setData(Data([1]), forKey: trigger) }
            removed = largeCount + 1 - cache.totalCount
        } baseline: {
            for name in victims {
                precondition(unlink(raw.entries.path + "/" + name) == 0, "the benchmark directory lost entries")
            }
        }
        precondition(removed == victims.count, "the size pass removed \(removed) entries, not \(victims.count)")
    }
}

/// A directory of benchmark files under the system's temporary directory.
private final class Scratch {
    let url: URL
    /// The cache directory inside it.
    var entries: URL { url.appendingPathComponent("entries", isDirectory: true) }

    init(_ label: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-disk-benchmark-\(label)-\(UUID().uuidString)")
    }

    func create() throws {
        try FileManager.default.createDirectory(at: entries, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("raw"), withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    func cache() -> DiskCache {
        DiskCache(directory: entries)
    }

    /// Creates the files among `names` that are missing, 100 bytes each.
    func fill(_ names: [String]) {
        let bytes = Data(repeating: 0x2a, count: 100)
        let directory = entries.path
        for name in names {
            let path = directory + "/" + name
            var info = stat()
            if stat(path, &info) == 0 { continue }
            Scratch.write(bytes, to: path)
        }
    }

    static func write(_ data: Data, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        precondition(written == data.count, "cannot write \(path)")
        close(fd)
    }

    /// The baseline of an atomic store: a temporary file in the same directory, renamed over the destination.
    static func atomicWrite(_ data: Data, to path: String) {
        let temporary = path + ".tmp"
        write(data, to: temporary)
        precondition(rename(temporary, path) == 0, "cannot rename \(temporary)")
    }

    /// `readdir` and `fstatat` over a directory, the least a cache must do to learn its files' sizes and dates;
    /// the number of regular files.
    static func listAndStat(_ path: String) -> Int {
        guard let directory = opendir(path) else { fatalError("cannot list \(path)") }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var count = 0
        var sizes = 0
        while let entry = readdir(directory) {
            var info = stat()
            let ok = withUnsafePointer(to: &entry.pointee.d_name) { name in
                name.withMemoryRebound(to: CChar.self, capacity: 256) { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 }
            }
            if ok, info.st_mode & S_IFMT == S_IFREG {
                count += 1
                sizes &+= Int(info.st_blocks) &+ Int(info.st_atim.tv_sec)
            }
        }
        blackHole(sizes)
        return count
    }

    /// The named files, least recently accessed first (ties by name), as the cache's size pass orders them.
    static func oldestFirst(_ directory: String, _ names: [String]) -> [String] {
        names.map { name -> (String, Double) in
            var info = stat()
            precondition(stat(directory + "/" + name, &info) == 0, "missing benchmark file \(name)")
            return (name, Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9)
        }
        .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        .map(\.0)
    }

    /// The allocated bytes of the named files.
    static func allocatedSize(_ directory: String, _ names: [String]) -> Int {
        var total = 0
        for name in names {
            var info = stat()
            precondition(stat(directory + "/" + name, &info) == 0, "missing benchmark file \(name)")
            total += Int(info.st_blocks) * 512
        }
        return total
    }

    /// Runs `work`; traps on failure, since a failing store would otherwise look fast.
    static func expect(_ work: () throws -> Void) {
        do {
            try work()
        } catch {
            fatalError("a disk cache benchmark operation failed: \(error)")
        }
    }
}
