import Foundation
import Glibc
import Testing
import WebImage
import WebImageTestSupport

/// The disk cache shared between processes: two `webimage cache put` writers on the same keys, and a writer
/// killed with SIGKILL in the middle of its writes. No file in the cache directory may ever be torn.
/// `Scripts/cache-stress.sh` runs longer versions.
@Suite final class DiskCacheProcessTests {
    let root: URL
    let cacheDirectory: URL
    /// Two different images: every entry must be byte-equal to one of them.
    let payloads: [Data]
    let payloadFiles: [String]

    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-process-\(UUID().uuidString)")
        self.root = root
        cacheDirectory = root.appendingPathComponent("cache/default")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        payloads = [Fixtures.data("source/photo.png"), Fixtures.data("jpeg/photo.jpg")]
        payloadFiles = try payloads.enumerated().map { index, data in
            let url = root.appendingPathComponent("payload-\(index)")
            try data.write(to: url)
            return url.path
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private var cacheOptions: [String] { ["--cache-dir", root.appendingPathComponent("cache").path] }

    private func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = WebImageToolTests.tool
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = WebImageToolTests.tool
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self))
    }

    /// The visible files of the cache directory (the entries); hidden ones are temporaries.
    private func entryNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// The temporary files of writes.
    private func temporaryNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)) ?? []).filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
    }

    /// Reads every entry; returns how many were read and the names of those that are not one of the payloads.
    private func checkEntries() -> (read: Int, torn: [String]) {
        var read = 0
        var torn: [String] = []
        for name in entryNames() {
            // Gone between the listing and the read: replaced or removed, not torn.
            guard let data = FileManager.default.contents(atPath: cacheDirectory.appendingPathComponent(name).path) else { continue }
            read += 1
            if !payloads.contains(data) { torn.append(name) }
        }
        return (read, torn)
    }

    private func expectEveryEntryDecodes(expectedCount: Int) throws {
        let names = entryNames()
        #expect(names.count == expectedCount)
        for name in names {
            let data = try Data(contentsOf: cacheDirectory.appendingPathComponent(name))
            #expect(payloads.contains(data), "\(name) is one of the payloads")
            #expect(throws: Never.self) { try ImageCoderRegistry.shared.decode(data, options: ImageDecodeOptions()) }
        }
        let verify = try run(["cache", "verify", "--json"] + cacheOptions)
        #expect(verify.status == 0, "\(verify.stdout)")
        let summary = verify.stdout.split(separator: "\n").last.flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(summary?["checked"] as? Int == expectedCount)
        #expect(summary?["undecodable"] as? Int == 0)
    }

    @Test func twoWritersOnTheSameKeysNeverTearAFile() throws {
        let keys = (0..<4).map { "https://example.com/shared-\($0).img" }
        let writers = try payloadFiles.map { file in
            try start(["cache", "put", "--repeat", "40"] + keys.flatMap { [$0, file] } + cacheOptions)
        }
        var reads = 0
        var torn: [String] = []
        let deadline = Date().addingTimeInterval(60)
        while writers.contains(where: \.isRunning), Date() < deadline {
            let check = checkEntries()
            reads += check.read
            torn += check.torn
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationReason == .exit && writer.terminationStatus == 0)
        }
        #expect(torn.isEmpty, "torn entries: \(torn)")
        #expect(reads > 0, "entries were read while the writers ran")
        #expect(Set(entryNames()) == Set(keys.map(DiskCache.fileName(forKey:))))
        #expect(temporaryNames().isEmpty, "writers that finish leave no temporary file")
        try expectEveryEntryDecodes(expectedCount: keys.count)
    }

    @Test func aWriterKilledMidWriteLeavesOnlyWholeEntries() throws {
        let keys = (0..<3).map { "https://example.com/killed-\($0).img" }
        var arguments = ["cache", "put", "--repeat", "1000000"]
        for (index, key) in keys.enumerated() { arguments += [key, payloadFiles[index % payloadFiles.count]] }
        arguments += cacheOptions
        for _ in 0..<6 {
            let writer = try start(arguments)
            // Wait until the writer is writing, then kill it at a random moment.
            let deadline = Date().addingTimeInterval(20)
            while entryNames().count < keys.count, writer.isRunning, Date() < deadline { usleep(1_000) }
            usleep(UInt32.random(in: 1_000...30_000))
            #expect(kill(writer.processIdentifier, SIGKILL) == 0)
            writer.waitUntilExit()
            #expect(writer.terminationReason == .uncaughtSignal)
            let check = checkEntries()
            #expect(check.torn.isEmpty, "torn entries: \(check.torn)")
        }
        try expectEveryEntryDecodes(expectedCount: keys.count)
        // Temporary files of killed writes are hidden and are not entries.
        let stats = try run(["cache", "stats", "--json"] + cacheOptions)
        let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        #expect(object?["count"] as? Int == keys.count)
        // No process holds their locks: once they are older than a write could be starting, a trim removes them.
        let past = timespec(tv_sec: time(nil) - 60, tv_nsec: 0)
        for name in temporaryNames() {
            var times = [past, past]
            #expect(utimensat(AT_FDCWD, cacheDirectory.appendingPathComponent(name).path, &times, 0) == 0)
        }
        #expect(try run(["cache", "trim"] + cacheOptions).status == 0)
        #expect(temporaryNames().isEmpty, "temporary files of killed writers: \(temporaryNames())")
        try expectEveryEntryDecodes(expectedCount: keys.count)
    }
}
