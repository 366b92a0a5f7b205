import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The `webimage` tool, run as a user runs it: JSON lines, exit status, files written.
@Suite final class WebImageToolTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The JSON objects printed, one per line.
        var objects: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }
    }

    /// The tool's binary, built next to the test bundle.
    static let tool = BuiltTools.webimage

    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    private func run(_ arguments: [String]) throws -> Run {
        try Self.run(arguments)
    }

    /// Runs the tool with `arguments` and waits for it.
    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func infoReportsEachFileAsJSON() throws {
        let files = ["jpeg/orient-6.jpg", "gif/anim-loop3.gif", "png/rgba8.png", "webp/quad-lossy.webp"].map { Fixtures.url($0).path }
        let result = try run(["info", "--json"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.objects
        #expect(objects.count == 4)
        #expect(objects.allSatisfy { $0["ok"] as? Bool == true })
        #expect(objects.map { $0["format"] as? String } == ["jpeg", "gif", "png", "webp"])
        #expect(objects[0]["width"] as? Int == 64 && objects[0]["height"] as? Int == 48)
        #expect(objects[0]["orientation"] as? String == "right")
        #expect((objects[1]["frames"] as? Int ?? 0) > 1)
        #expect(objects[1]["loopCount"] as? Int == 3)
        #expect(objects[2]["hasAlpha"] as? Bool == true)
        #expect(objects.allSatisfy { $0["ms"] is Double })
    }

    @Test func failuresCarryTheErrorCodeAndExitOne() throws {
        let broken = temporary.appendingPathComponent("broken.png")
        try Fixtures.data("png/rgb8.png").prefix(40).write(to: broken)
        let result = try run(["decode", "--json", Fixtures.url("png/rgb8.png").path, broken.path, temporary.appendingPathComponent("missing.jpg").path])
        #expect(result.status == 1)
        let objects = result.objects
        #expect(objects.count == 3)
        #expect(objects[0]["ok"] as? Bool == true)
        #expect(objects[0]["frames"] as? Int == 1)
        #expect(objects[1]["ok"] as? Bool == false)
        let error = objects[1]["error"] as? [String: Any]
        #expect(error?["code"] as? String == "badImageData")
        #expect((error?["message"] as? String)?.isEmpty == false)
        #expect((objects[2]["error"] as? [String: Any])?["code"] as? String == "diskIO")
    }

    @Test func thumbAndConvertWriteFiles() throws {
        let thumbs = try run(["thumb", "--json", "--size", "16", "--out", temporary.path, "--format", "webp", Fixtures.url("jpeg/quad-444.jpg").path])
        #expect(thumbs.status == 0, "\(thumbs.stderr)")
        let thumb = try #require(thumbs.objects.first)
        #expect(thumb["width"] as? Int == 16 && thumb["height"] as? Int == 12)
        let written = try #require(thumb["output"] as? String)
        #expect(FileManager.default.fileExists(atPath: written))
        #expect(written.hasSuffix("quad-444-16.webp"))

        let output = temporary.appendingPathComponent("anim.webp").path
        let converted = try run(["convert", "--json", "--lossless", Fixtures.url("gif/anim-loop3.gif").path, output])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.objects.first?["format"] as? String == "webp")
        let info = try run(["info", "--json", output])
        #expect(info.objects.first?["loopCount"] as? Int == 3)
    }

    @Test func textOutputAndUsageErrors() throws {
        let text = try run(["info", Fixtures.url("jpeg/quad-444.jpg").path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("jpeg 64x48"))
        let bad = try run(["thumb", "--size", "0", Fixtures.url("jpeg/quad-444.jpg").path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("at least 1"), "\(bad.stderr)")
    }

    @Test func infoReportsFrameDurations() throws {
        let files = ["gif/anim.gif", "png/apng-blend.png", "webp/anim-compose.webp", "jpeg/quad-444.jpg"]
        let result = try run(["info", "--json"] + files.map { Fixtures.url($0).path })
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.objects
        #expect(objects.count == 4)
        for (file, object) in zip(files.prefix(3), objects) {
            let decoded = try ImageCoderRegistry.shared.decode(Fixtures.data(file), options: ImageDecodeOptions())
            #expect(object["durations"] as? [Double] == decoded.frames.map(\.duration), "\(file)")
            #expect(object["loopCount"] as? Int == decoded.loopCount, "\(file)")
            #expect(object["frames"] as? Int == decoded.frames.count, "\(file)")
        }
        #expect(objects[0]["durations"] as? [Double] == [0.1, 0.1, 0.1, 0.5])
        #expect(objects[3]["durations"] == nil, "a still image has none")
        #expect(objects[3]["loopCount"] == nil)

        let text = try run(["info", Fixtures.url("gif/anim.gif").path, Fixtures.url("png/apng-blend.png").path])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("gif 32x24, 4 frames, loop 0, durations 100 ms x3, 500 ms") == true, "\(text.stdout)")
        #expect(lines.last?.hasSuffix(", durations 100 ms, 200 ms, 300 ms") == true, "\(text.stdout)")
    }

    @Test func thumbRunsTheTransformChainOnTheThumbnail() throws {
        let file = Fixtures.url("png/rgba8.png").path
        let result = try run(["thumb", "--json", "--size", "16", "--out", temporary.path, "--transform", "resize=10x6:fill,flip=h,round=2", file])
        #expect(result.status == 0, "\(result.stderr)")
        let thumb = try #require(result.objects.first)
        #expect(thumb["width"] as? Int == 10 && thumb["height"] as? Int == 6)
        #expect(thumb["format"] as? String == "png")
        let written = try #require(thumb["output"] as? String)

        // The same chain, run by the library on the same thumbnail decode.
        let registry = ImageCoderRegistry.shared
        let thumbnail = try registry.decode(Fixtures.data("png/rgba8.png"), options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16)))
        let chain = ImageTransformers.Pipeline([
            ImageTransformers.Resize(width: 10, height: 6),
            ImageTransformers.Flip(horizontal: true),
            ImageTransformers.RoundCorner(radius: 2),
        ])
        let expected = try #require(chain.transform(image: thumbnail, key: file))
        let decoded = try registry.decode(Data(contentsOf: URL(fileURLWithPath: written)), options: ImageDecodeOptions())
        #expect(decoded.pixels == expected.pixels)

        let bad = try run(["thumb", "--size", "16", "--out", temporary.path, "--transform", "resize=10x6,blur=soft", file])
        #expect(bad.status == 64, "a usage error, as other validation errors")
        #expect(bad.stderr.contains("step 2 'blur=soft'"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
    }

    /// Every command that decodes a thumbnail takes `--thumbnail WxH` or `N`, and refuses a bad one the same way.
    @Test(arguments: [
        ["thumb", "--out", "OUT"], ["decode"], ["frames", "--out", "OUT"], ["fetch", "--cache-dir", "OUT"],
    ])
    func everyCommandTakesTheSameThumbnailSizes(command: [String]) throws {
        let file = Fixtures.url("gif/anim.gif")
        // fetch loads URLs: the same bytes as a data URL.
        let input = command[0] == "fetch" ? "data:image/gif;base64," + Fixtures.data("gif/anim.gif").base64EncodedString() : file.path
        let arguments = command.map { $0 == "OUT" ? temporary.appendingPathComponent(command[0]).path : $0 }
        for (size, expected) in [("16", (16, 12)), ("16x8", (11, 8))] {
            let run = try run(arguments + ["--json", "--thumbnail", size, input])
            #expect(run.status == 0, "\(command[0]) --thumbnail \(size): \(run.stderr)")
            let object = try #require(run.objects.first)
            #expect(object["width"] as? Int == expected.0 && object["height"] as? Int == expected.1, "\(command[0]) \(size): \(object)")
        }
        for bad in ["0", "-3", "big", "7x0", "999999999999"] {
            let run = try run(arguments + ["--thumbnail=\(bad)", input])
            #expect(run.status == 64, "\(command[0]) --thumbnail \(bad)")
            #expect(run.stderr.contains("--thumbnail") && run.stderr.contains("'\(bad)'"), "\(run.stderr)")
        }
    }

    @Test func thumbKeepsSizeAsAnotherNameAndNamesABoxByItsSides() throws {
        let file = Fixtures.url("jpeg/quad-444.jpg").path
        let bySize = try run(["thumb", "--json", "--size", "16", "--out", temporary.path, file])
        let byThumbnail = try run(["thumb", "--json", "--thumbnail", "16", "--out", temporary.path, file])
        #expect(bySize.objects.first?["output"] as? String != nil)
        #expect(bySize.objects.first?["output"] as? String == byThumbnail.objects.first?["output"] as? String)
        let box = try run(["thumb", "--json", "--thumbnail", "32x12", "--out", temporary.path, file])
        let output = try #require(box.objects.first?["output"] as? String)
        #expect(output.hasSuffix("quad-444-32x12.jpeg") || output.hasSuffix("quad-444-32x12.jpg"), "\(output)")
        #expect(box.objects.first?["height"] as? Int == 12)
    }
}
