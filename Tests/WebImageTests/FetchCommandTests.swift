import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage fetch` against the loopback server, run as a process.
@Suite struct FetchCommandTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, lines: [[String: Any]]) {
        let process = Process()
        process.executableURL = WebImageToolTests.tool
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        return (process.terminationStatus, lines)
    }

    @Test func fetchesDecodesAndSummarises() async throws {
        try await withTestHTTPServer { server in
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            let good = server.url("/image/jpeg/photo.jpg").absoluteString
            let missing = server.url("/status/404").absoluteString
            let (status, lines) = try run(["fetch", good, missing, "--json", "--concurrency", "2", "--out", out.path, "--header", "X-Test: 1"])
            #expect(status == 1, "one URL failed")
            let byURL = Dictionary(lines.compactMap { line in (line["file"] as? String).map { ($0, line) } }, uniquingKeysWith: { a, _ in a })
            let ok = try #require(byURL[good])
            #expect(ok["ok"] as? Bool == true)
            #expect(ok["status"] as? Int == 200)
            #expect(ok["width"] as? Int == 320 && ok["height"] as? Int == 240)
            #expect(ok["format"] as? String == "jpeg")
            let saved = try #require(ok["output"] as? String)
            #expect(FileManager.default.contents(atPath: saved) == Fixtures.data("jpeg/photo.jpg"))
            let failed = try #require(byURL[missing])
            #expect(failed["ok"] as? Bool == false)
            #expect(failed["status"] as? Int == 404)
            #expect((failed["error"] as? [String: Any])?["code"] as? String == "invalidDownloadStatusCode")
            let summary = try #require(lines.compactMap { $0["summary"] as? [String: Any] }.first)
            #expect(summary["ok"] as? Int == 1 && summary["failed"] as? Int == 1 && summary["total"] as? Int == 2)
            let headers = try #require(server.lastRequestHeaders(forPath: "/image/jpeg/photo.jpg"))
            #expect(headers.contains { $0.0.lowercased() == "x-test" && $0.1 == "1" })
        }
    }
}
