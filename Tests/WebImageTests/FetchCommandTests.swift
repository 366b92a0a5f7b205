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
            let (status, lines) = try run([
                "fetch", good, missing, "--json", "--concurrency", "2", "--out", out.path, "--header", "X-Test: 1",
                "--cache-dir", out.appendingPathComponent("cache").path,
            ])
            #expect(status == 1, "one URL failed")
            let byURL = Dictionary(lines.compactMap { line in (line["file"] as? String).map { ($0, line) } }, uniquingKeysWith: { a, _ in a })
            let ok = try #require(byURL[good])
            #expect(ok["ok"] as? Bool == true)
            #expect(ok["source"] as? String == "none", "from the network")
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

    @Test func dataLoadsPrintTheVariantAndWriteItsBytes() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-data-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let url = server.url("/image/jpeg/photo.jpg").absoluteString
            let common = ["--json", "--cache-dir", root.appendingPathComponent("cache").path, "--out", root.path]
            let original = try run(["fetch", "--data", url] + common)
            #expect(original.status == 0)
            let bytes = try #require(original.lines.first { $0["file"] as? String == url })
            #expect(bytes["source"] as? String == "none" && bytes["format"] as? String == "jpeg")
            #expect(bytes["bytes"] as? Int == Fixtures.data("jpeg/photo.jpg").count)
            let saved = try #require(bytes["output"] as? String)
            #expect(FileManager.default.contents(atPath: saved) == Fixtures.data("jpeg/photo.jpg"))

            let thumb = try run(["fetch", "--data", url, "--thumbnail", "64x64", "--format", "webp", "--quality", "0.5"] + common)
            let variant = try #require(thumb.lines.first { $0["file"] as? String == url })
            #expect(variant["source"] as? String == "none", "made from the original on disk")
            #expect(variant["format"] as? String == "webp")
            #expect((variant["width"] as? Int ?? 0) <= 64 && (variant["height"] as? Int ?? 0) <= 64)
            let written = try #require((variant["output"] as? String).flatMap { FileManager.default.contents(atPath: $0) })
            #expect(written.starts(with: Data("RIFF".utf8)))
            #expect(server.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)

            let again = try run(["fetch", "--data", url, "--thumbnail", "64x64", "--format", "webp", "--quality", "0.5"] + common)
            #expect(again.lines.first { $0["file"] as? String == url }?["source"] as? String == "disk")
            #expect(try run(["fetch", url, "--quality", "0.5"] + common).status != 0, "--quality goes with --data")
        }
    }

    @Test func aSecondRunIsServedFromDiskWithoutARequest() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let urls = ["/image/jpeg/photo.jpg", "/image/png/rgb8.png", "/image/gif/quad.gif"].map { server.url($0).absoluteString }
            let arguments = ["fetch"] + urls + ["--json", "--cache-dir", root.path, "--namespace", "cli"]
            let first = try run(arguments)
            #expect(first.status == 0)
            #expect(first.lines.compactMap { $0["source"] as? String } == ["none", "none", "none"])
            #expect(server.totalRequestCount == 3)

            let second = try run(arguments)
            #expect(second.status == 0)
            #expect(second.lines.compactMap { $0["source"] as? String } == ["disk", "disk", "disk"])
            #expect(server.totalRequestCount == 3, "no request the second time")

            // Thumbnails of what is on disk: still no request.
            let thumbs = try run(["fetch", urls[0], "--json", "--cache-dir", root.path, "--namespace", "cli", "--thumbnail", "40x30"])
            let thumb = try #require(thumbs.lines.first)
            #expect(thumb["width"] as? Int == 40 && thumb["source"] as? String == "disk")
            #expect(server.totalRequestCount == 3)
        }
    }

    @Test func aTransformChainIsCachedUnderTheTransformedKey() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-transform-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let url = server.url("/image/jpeg/photo.jpg").absoluteString
            let chain = "resize=64x48:fill,gray"
            let arguments = ["fetch", url, "--json", "--cache-dir", root.path, "--namespace", "cli", "--transform", chain]
            let first = try run(arguments + ["--out", root.appendingPathComponent("out").path])
            #expect(first.status == 0)
            let loaded = try #require(first.lines.first)
            #expect(loaded["source"] as? String == "none")
            #expect(loaded["width"] as? Int == 64 && loaded["height"] as? Int == 48)
            #expect(server.totalRequestCount == 1)

            // SDWebImage's key: the chain's transformer key inserted before the URL's extension.
            let transformerKey = ImageTransformers.Pipeline([
                ImageTransformers.Resize(width: 64, height: 48, scaleMode: .fill),
                ImageTransformers.Grayscale(),
            ]).transformerKey
            let key = ImageCacheKeys.transformedKey(for: url, transformerKey: transformerKey)
            #expect(key.contains("-SDImageResizingTransformer(%7B64.000000,48.000000%7D,0)-SDImageGrayscaleTransformer.jpg"), "\(key)")
            let namespace = root.appendingPathComponent("cli")
            #expect(FileManager.default.fileExists(atPath: namespace.appendingPathComponent(DiskCache.fileName(forKey: key)).path))
            #expect(FileManager.default.fileExists(atPath: namespace.appendingPathComponent(DiskCache.fileName(forKey: url)).path), "the original too")
            #expect(loaded["output"] as? String == root.appendingPathComponent("out").appendingPathComponent(DiskCache.fileName(forKey: key)).path)

            let second = try run(arguments)
            #expect(second.status == 0)
            let cached = try #require(second.lines.first)
            #expect(cached["source"] as? String == "disk")
            #expect(cached["width"] as? Int == 64 && cached["height"] as? Int == 48)
            #expect(server.totalRequestCount == 1, "no request the second time")

            // Another chain starts from the original on disk.
            let other = try run(["fetch", url, "--json", "--cache-dir", root.path, "--namespace", "cli", "--transform", "crop=32x24+8+8"])
            #expect(other.lines.first?["width"] as? Int == 32)
            #expect(server.totalRequestCount == 1)

            let bad = try run(arguments.dropLast() + ["resize=64x48,gray,spin=3"])
            #expect(bad.status == 64)
            #expect(server.totalRequestCount == 1)
        }
    }

    @Test func prefetchDiskOnlyWarmsTheCacheForFetch() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("prefetch-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let list = root.appendingPathComponent("urls.txt")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let urls = (0..<5).map { server.url("/image/png/rgb8.png?n=\($0)").absoluteString }
            try ("# five images\n" + urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
            let cache = ["--cache-dir", root.appendingPathComponent("cache").path]

            let prefetch = try run(["prefetch", "-i", list.path, "--disk-only", "--json"] + cache)
            #expect(prefetch.status == 0)
            let summary = try #require(prefetch.lines.first?["summary"] as? [String: Any])
            #expect(summary["finished"] as? Int == 5 && summary["skipped"] as? Int == 0)
            #expect(server.totalRequestCount == 5)

            let fetch = try run(["fetch", "-i", list.path, "--json"] + cache)
            #expect(fetch.lines.compactMap { $0["source"] as? String } == Array(repeating: "disk", count: 5))
            #expect(server.totalRequestCount == 5)

            let failing = try run(["prefetch", server.url("/status/500").absoluteString, "--json"] + cache)
            #expect(failing.status == 1)
            #expect((failing.lines.first?["summary"] as? [String: Any])?["skipped"] as? Int == 1)
        }
    }

    @Test func passwordsInURLsAreNeverPrinted() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-secret-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let port = server.url("/").port ?? 0
            let base = "http://alice:hunter2@127.0.0.1:\(port)"
            // A success, a status failure and a stall that times out.
            let urls = [
                base + "/image/jpeg/photo.jpg", base + "/status/404", base + "/stall?after=16",
            ]
            for format in [["--json"], []] {
                let run = try WebImageToolTests.run(
                    ["fetch"] + urls + format + ["--timeout", "1", "--cache-dir", root.appendingPathComponent("cache").path]
                )
                let (status, text) = (run.status, run.stdout + run.stderr)
                #expect(status == 1, "two of three fail")
                #expect(!text.contains("hunter2"), "\(text)")
                #expect(text.contains("alice:***@127.0.0.1:\(port)/image/jpeg/photo.jpg"), "\(text)")
                #expect(text.contains("404"))
                #expect(text.contains("timedOut"))
            }
        }
    }

    @Test func imagesThatCannotBeStoredFailTheRun() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-unstored-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            // The namespace's directory is taken by a file: no write can get past it, even as root.
            try Data("not a directory".utf8).write(to: root.appendingPathComponent("default"))
            let urls = ["/image/jpeg/photo.jpg", "/image/png/rgb8.png"].map { server.url($0).absoluteString }
            let (status, lines) = try run(["fetch"] + urls + ["--json", "--cache-dir", root.path])
            #expect(status == 1, "nothing was stored")
            let reports = lines.filter { $0["file"] != nil }
            #expect(reports.count == 2)
            for report in reports {
                #expect(report["ok"] as? Bool == false)
                #expect(report["width"] as? Int != nil, "the image itself was loaded")
                let error = report["error"] as? [String: Any]
                #expect(error?["code"] as? String == "diskIO")
                #expect((error?["message"] as? String)?.contains("not stored") == true)
            }
            let summary = try #require(lines.compactMap { $0["summary"] as? [String: Any] }.first)
            #expect(summary["ok"] as? Int == 0 && summary["failed"] as? Int == 2)

            // A prefetch warms nothing either way, and says so.
            for mode in [[], ["--disk-only"]] {
                let prefetch = try run(["prefetch"] + urls + mode + ["--json", "--cache-dir", root.path])
                #expect(prefetch.status == 1)
                let counts = try #require(prefetch.lines.compactMap { $0["summary"] as? [String: Any] }.first)
                #expect(counts["skipped"] as? Int == 2, "\(mode)")
            }
        }
    }

    @Test func publicOnlyRefusesInternalAddressesUnlessTheHostIsAllowed() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-public-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let url = server.url("/image/jpeg/photo.jpg").absoluteString
            let common = ["--json", "--cache-dir", root.appendingPathComponent("cache").path, "--public-only"]
            let refused = try run(["fetch", url] + common)
            #expect(refused.status == 1)
            let line = try #require(refused.lines.first { $0["file"] as? String == url })
            #expect((line["error"] as? [String: Any])?["code"] as? String == "addressRefused")
            #expect(server.totalRequestCount == 0)

            let allowed = try run(["fetch", url, "--allow-host", "127.0.0.1"] + common)
            #expect(allowed.status == 0)
            #expect(server.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)
        }
    }
}
