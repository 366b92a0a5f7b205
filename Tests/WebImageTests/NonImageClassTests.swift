import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// One non-image, as a file and as a download, classed alike by every command.
@Suite struct NonImageClassTests {
    @Test func bytesNoCoderRecognisesAreUnsupportedFormatEverywhere() async throws {
        try await withTestHTTPServer { server in
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("non-image-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let text = Data("not an image, only text".utf8)
            let file = root.appendingPathComponent("notes.txt")
            try text.write(to: file)
            let urls = [server.url("/generated?bytes=64").absoluteString, "data:text/plain;base64," + text.base64EncodedString()]
            let runs = [
                try WebImageToolTests.run(["info", "--json", file.path]),
                try WebImageToolTests.run(["thumb", "--json", "--thumbnail", "8", "--out", root.path, file.path]),
                try WebImageToolTests.run(["decode", "--json", file.path]),
                try WebImageToolTests.run(["fetch", "--json", "--cache-dir", root.appendingPathComponent("cache").path] + urls),
                try WebImageToolTests.run(["fetch", "--json", "--data", "--cache-dir", root.appendingPathComponent("data").path] + urls),
            ]
            let failures = runs.flatMap(\.objects).filter { $0["summary"] == nil }
            #expect(failures.count == 7)
            for failure in failures {
                #expect(failure["ok"] as? Bool == false)
                #expect((failure["error"] as? [String: Any])?["code"] as? String == "unsupportedFormat", "\(failure)")
            }
            #expect(runs.allSatisfy { $0.status == 1 })

            // Malformed bytes of a known format stay bad image data, from a file and from a download.
            let truncated = Fixtures.data("png/rgb8.png").prefix(40)
            let broken = root.appendingPathComponent("broken.png")
            try truncated.write(to: broken)
            let decode = try WebImageToolTests.run(["decode", "--json", broken.path])
            let fetch = try WebImageToolTests.run([
                "fetch", "--json", "--cache-dir", root.appendingPathComponent("cache").path,
                "data:image/png;base64," + truncated.base64EncodedString(),
            ])
            let fetchData = try WebImageToolTests.run([
                "fetch", "--json", "--data", "--cache-dir", root.appendingPathComponent("data").path,
                "data:image/png;base64," + truncated.base64EncodedString(),
            ])
            for object in [decode.objects.first, fetch.objects.first, fetchData.objects.first] {
                #expect((object?["error"] as? [String: Any])?["code"] as? String == "badImageData", "\(object ?? [:])")
            }
        }
    }
}
