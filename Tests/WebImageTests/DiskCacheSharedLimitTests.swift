import Foundation
import Glibc
import Testing
import WebImage
import WebImageTestSupport

/// The size limit of a directory that several processes write at once: `webimage cache put` writers, each with
/// its own keys and the same `--max-size`, must leave no more than the limit (within one entry) between them.
@Suite final class DiskCacheSharedLimitTests {
    let root: URL
    let cacheDirectory: URL
    let payloadFile: String
    /// The bytes one entry of the payload occupies on disk.
    let entrySize: Int

    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-shared-limit-\(UUID().uuidString)")
        self.root = root
        cacheDirectory = root.appendingPathComponent("cache/default")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let payload = root.appendingPathComponent("payload.jpg")
        try Fixtures.data("jpeg/photo.jpg").write(to: payload)
        payloadFile = payload.path
        entrySize = Self.allocatedSize(payload.path)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private static func allocatedSize(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_blocks) * 512
    }

    /// The bytes the cache's entries and temporary files occupy, as `du` counts them.
    private func cachedBytes() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") || $0.hasSuffix(".tmp") }
            .map { Self.allocatedSize(cacheDirectory.appendingPathComponent($0).path) }
            .reduce(0, +)
    }

    @Test func writersInSeveralProcessesKeepOneLimit() throws {
        #expect(entrySize > 0)
        let limit = 16 * entrySize
        let writers = try (0..<4).map { writer in
            var arguments = ["cache", "put", "--repeat", "20", "--max-size", "\(limit)", "--cache-dir", root.appendingPathComponent("cache").path]
            for key in 0..<30 { arguments += ["https://example.com/writer-\(writer)/\(key).jpg", payloadFile] }
            let process = Process()
            process.executableURL = WebImageToolTests.tool
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationReason == .exit && writer.terminationStatus == 0)
        }
        let total = cachedBytes()
        #expect(total > 0)
        #expect(total <= limit + entrySize, "\(total) bytes left for a limit of \(limit) and entries of \(entrySize)")
    }
}
