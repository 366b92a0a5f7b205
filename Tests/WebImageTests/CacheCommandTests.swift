import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage cache` on keys whose names are long in bytes.
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
}
