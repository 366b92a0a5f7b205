import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// What the tool says when something is off, and what its numbers and names mean.
@Suite final class ToolMessagesTests {
    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("tool-messages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    @Test(arguments: [
        ["info"], ["decode"], ["thumb", "--thumbnail", "8", "--out", "OUT"], ["frames", "--out", "OUT"], ["convert", "IN", "OUT/x.png"],
    ])
    func aDirectoryWhereAFileIsExpectedIsNamedAsSuch(command: [String]) throws {
        let out = temporary.appendingPathComponent("out").path
        let arguments = command.map { $0 == "OUT" ? out : $0 == "OUT/x.png" ? out + "/x.png" : $0 }
        let input = temporary.path
        let full = arguments.contains("IN") ? arguments.map { $0 == "IN" ? input : $0 } : arguments + [input]
        let run = try WebImageToolTests.run(full)
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(input) is a directory, not a file"), "\(run.stderr)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func anOutputFileThatIsADirectoryIsNamedAsSuch() throws {
        let run = try WebImageToolTests.run(["convert", "--json", Fixtures.url("png/rgb8.png").path, temporary.path])
        #expect(run.status == 1)
        let error = try #require(run.objects.first?["error"] as? [String: Any])
        #expect(error["code"] as? String == "diskIO")
        #expect(error["message"] as? String == "\(temporary.path) is a directory, not a file")
    }

    /// A thumbnail decode reads the whole source: its speed counts the source's pixels, not the output's.
    @Test func decodeSpeedCountsTheSourcesPixels() throws {
        let file = Fixtures.url("jpeg/photo.jpg").path
        let source = try ImageCoderRegistry.shared.info(for: Fixtures.data("jpeg/photo.jpg")).pixelSize
        for arguments in [["--thumbnail", "32"], []] {
            let run = try WebImageToolTests.run(["decode", "--json"] + arguments + [file])
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(run.objects.first)
            let speed = try #require(object["megapixelsPerSecond"] as? Double)
            let ms = try #require(object["ms"] as? Double)
            let megapixels = speed * ms / 1000
            let expected = Double(source.width * source.height) / 1e6
            #expect(abs(megapixels - expected) < expected * 1e-6, "\(arguments): \(megapixels) MP, the source has \(expected)")
        }
    }

    /// JSON keeps SDWebImage's `none` for an image no cache served; text says `network`.
    @Test func aLoadFromTheLoaderIsNoneInJSONAndNetworkInText() throws {
        let url = "data:image/png;base64," + Fixtures.data("png/rgb8.png").base64EncodedString()
        let cache = temporary.appendingPathComponent("cache").path
        let json = try WebImageToolTests.run(["fetch", "--json", "--cache-dir", cache, "--options", "fromLoaderOnly", url])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.objects.first?["source"] as? String == ImageCacheType.none.description)
        let text = try WebImageToolTests.run(["fetch", "--cache-dir", cache, "--options", "fromLoaderOnly", url])
        #expect(text.status == 0, "\(text.stderr)")
        let line = try #require(text.stdout.split(separator: "\n").first)
        #expect(line.hasPrefix("\(url): network png "), "\(line)")
        let cached = try WebImageToolTests.run(["fetch", "--cache-dir", cache, url])
        #expect(cached.stdout.hasPrefix("\(url): disk png "), "\(cached.stdout)")
    }
}
