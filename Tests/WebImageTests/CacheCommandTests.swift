import Foundation
import Glibc
import Testing
import WebImage
import WebImageTestSupport

/// `webimage cache` on directories it cannot maintain, which must fail with the cause, and on keys whose names
/// are long in bytes.
@Suite final class CacheCommandTests {
    let root: URL
    let cacheRoot: URL
    let cacheDirectory: URL
    let payloadFile: String
    let payload = Data("payload bytes".utf8)

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("cache-command-\(UUID().uuidString)")
        cacheRoot = root.appendingPathComponent("cache")
        cacheDirectory = cacheRoot.appendingPathComponent("default")
        try FileManager.default.createDirectory(at: cacheRoot, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("payload")
        try payload.write(to: file)
        payloadFile = file.path
    }

    deinit {
        UnchangeableDirectory.release(cacheDirectory.path)
        try? FileManager.default.removeItem(at: root)
    }

    private func run(_ arguments: [String]) throws -> WebImageToolTests.Run {
        try WebImageToolTests.run(arguments + ["--cache-dir", cacheRoot.path])
    }

    @Test func putStoresAKeyWithALongNonASCIIExtension() throws {
        for key in ["x." + String(repeating: "é", count: 150), "https://example.com/x." + String(repeating: "é", count: 150)] {
            let put = try run(["cache", "put", key, payloadFile])
            #expect(put.status == 0, "\(put.stderr)")
            let path = cacheDirectory.appendingPathComponent(DiskCache.fileName(forKey: key)).path
            #expect(FileManager.default.contents(atPath: path) == payload)
        }
    }

    /// Where the cache directory should be there is a file: nothing can be listed or removed.
    @Test(arguments: ["trim", "clear"])
    func aCacheDirectoryThatIsAFileFailsTheCommand(command: String) throws {
        try Data("not a directory".utf8).write(to: cacheDirectory)
        let text = try run(["cache", command])
        #expect(text.status == 1)
        #expect(text.stdout.isEmpty, "no summary: \(text.stdout)")
        #expect(text.stderr.contains("error: diskIO"), "\(text.stderr)")
        #expect(text.stderr.contains(cacheDirectory.path))
        #expect(text.stderr.contains("Not a directory"))

        let json = try run(["cache", command, "--json"])
        #expect(json.status == 1)
        let object = try #require(json.objects.last)
        #expect(object["ok"] as? Bool == false)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "diskIO")
        #expect((error["message"] as? String)?.contains("Not a directory") == true)
    }

    /// Entries that cannot be removed (an immutable directory, which stops root too): the command fails and
    /// says why; the entries are still there.
    @Test(.enabled(if: UnchangeableDirectory.isAvailable), arguments: ["trim", "clear"])
    func entriesThatCannotBeRemovedFailTheCommand(command: String) throws {
        let keys = (0..<3).map { "https://example.com/\($0).png" }
        let put = try run(["cache", "put"] + keys.flatMap { [$0, payloadFile] })
        #expect(put.status == 0, "\(put.stderr)")
        #expect(UnchangeableDirectory.make(cacheDirectory.path))
        defer { UnchangeableDirectory.release(cacheDirectory.path) }

        let result = try run(["cache", command, "--max-age", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: diskIO"), "\(result.stderr)")
        #expect(result.stderr.contains(cacheDirectory.path))
        #expect(result.stderr.contains("Operation not permitted") || result.stderr.contains("Permission denied"))
        for key in keys {
            #expect(FileManager.default.fileExists(atPath: cacheDirectory.appendingPathComponent(DiskCache.fileName(forKey: key)).path))
        }
    }

    @Test func statsOnADirectoryThatDoesNotExistFails() throws {
        let missing = root.appendingPathComponent("nowhere")
        let text = try WebImageToolTests.run(["cache", "stats", "--cache-dir", missing.path])
        #expect(text.status == 1)
        #expect(text.stdout.isEmpty, "no statistics: \(text.stdout)")
        #expect(text.stderr.contains("\(missing.appendingPathComponent("default").path): the directory does not exist"), "\(text.stderr)")
        let json = try WebImageToolTests.run(["cache", "stats", "--json", "--cache-dir", missing.path])
        #expect(json.status == 1)
        let object = try #require(json.objects.first)
        #expect(object["ok"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["code"] as? String == "diskIO")
        #expect(object["count"] == nil)
        #expect(!FileManager.default.fileExists(atPath: missing.path), "stats creates nothing")
    }

    /// The limits a cache was given are remembered in its directory: stats shows them and trim keeps to them.
    @Test func statsShowsTheLimitsTheCacheWasGiven() throws {
        let defaults = DiskCache.Configuration()
        let put = try run(["cache", "put", "--max-size", "123456", "--max-age", "600", "--expire-type", "modification", "k", payloadFile])
        #expect(put.status == 0, "\(put.stderr)")
        let stats = try run(["cache", "stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let object = try #require(stats.objects.first)
        #expect(object["maxSize"] as? Int == 123456 && 123456 != defaults.maxSize)
        #expect(object["maxAge"] as? Double == 600 && 600 != defaults.maxAge)
        #expect(object["expireType"] as? String == "modification")
        #expect(object["count"] as? Int == 1, "the remembered limits are not an entry")

        // A later command that gives one limit changes that one only.
        let trim = try run(["cache", "trim", "--max-size", "0"])
        #expect(trim.status == 0, "\(trim.stderr)")
        let after = try #require(try run(["cache", "stats", "--json"]).objects.first)
        #expect(after["maxSize"] as? Int == 0 && after["maxAge"] as? Double == 600 && after["expireType"] as? String == "modification")
        let text = try run(["cache", "stats"])
        #expect(text.stdout.contains("max size: none") && text.stdout.contains("max age: 600 s"), "\(text.stdout)")
        #expect(text.stdout.contains("expire by: modification"), "\(text.stdout)")

        // Options given to stats show the cache as they would make it, and are not remembered.
        let asked = try #require(try run(["cache", "stats", "--json", "--max-age", "30"]).objects.first)
        #expect(asked["maxAge"] as? Double == 30)
        #expect(try run(["cache", "stats", "--json"]).objects.first?["maxAge"] as? Double == 600)
    }

    @Test func aCacheGivenNoLimitsShowsTheDefaults() throws {
        let put = try run(["cache", "put", "k", payloadFile])
        #expect(put.status == 0, "\(put.stderr)")
        let object = try #require(try run(["cache", "stats", "--json"]).objects.first)
        let defaults = DiskCache.Configuration()
        #expect(object["maxSize"] as? Int == defaults.maxSize && object["maxAge"] as? Double == defaults.maxAge)
        #expect(object["expireType"] as? String == "access")
    }
}

/// A directory in which no file can be created or removed, even by root: the immutable attribute
/// (`chattr +i`) when running as root, mode 0555 otherwise.
enum UnchangeableDirectory {
    /// Whether this machine can make one: root needs the immutable attribute, which some file systems and
    /// containers refuse.
    static let isAvailable: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("unchangeable-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard make(probe.path) else { return false }
        defer { release(probe.path) }
        return !FileManager.default.createFile(atPath: probe.appendingPathComponent("file").path, contents: Data())
    }()

    /// Makes `path` unchangeable; false when that failed.
    static func make(_ path: String) -> Bool {
        geteuid() == 0 ? chattr("+i", path) : chmod(path, 0o555) == 0
    }

    /// Makes `path` changeable again.
    static func release(_ path: String) {
        if geteuid() == 0 {
            _ = chattr("-i", path)
        } else {
            _ = chmod(path, 0o755)
        }
    }

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["chattr", flag, path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
