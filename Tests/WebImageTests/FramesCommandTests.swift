import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage frames`, run as a process: the PNGs it writes are the frames a one-shot decode gives.
@Suite final class FramesCommandTests {
    let temporary: URL
    let registry = ImageCoderRegistry.makeDefault()

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    private func run(_ arguments: [String]) throws -> WebImageToolTests.Run {
        try WebImageToolTests.run(arguments)
    }

    /// The JSON summary of `frames --json FIXTURE --out DIR`.
    private func export(_ fixture: String, to directory: URL, _ extra: [String] = []) throws -> [String: Any] {
        let result = try run(["frames", "--json", Fixtures.url(fixture).path, "--out", directory.path] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The names of the files in `directory`, sorted.
    private func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test(arguments: ["gif/anim.gif", "png/apng-blend.png", "png/apng-dispose.png", "webp/anim-compose.webp"])
    func framesMatchTheOneShotDecode(fixture: String) throws {
        let directory = temporary.appendingPathComponent("out/\(fixture)")
        let summary = try export(fixture, to: directory)
        let decoded = try registry.decode(Fixtures.data(fixture), options: ImageDecodeOptions())
        #expect(decoded.frames.count > 1)

        #expect(summary["ok"] as? Bool == true)
        #expect(summary["frames"] as? Int == decoded.frames.count)
        #expect(summary["width"] as? Int == decoded.width && summary["height"] as? Int == decoded.height)
        #expect(summary["loopCount"] as? Int == decoded.loopCount)
        #expect(summary["durations"] as? [Double] == decoded.frames.map(\.duration))
        #expect(summary["output"] as? String == directory.path)

        let names = try files(in: directory)
        #expect(names == (0..<decoded.frames.count).map { "frame-000\($0).png" }, "fewer than 10 frames")
        var bytes = 0
        for (index, name) in names.enumerated() {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            bytes += data.count
            #expect(ImageFormat.detect(data) == .png)
            let frame = try registry.decode(data, options: ImageDecodeOptions())
            #expect(frame.frames.count == 1)
            #expect(frame.pixels == decoded.frames[index].pixels, "\(fixture) frame \(index)")
        }
        #expect(summary["bytes"] as? Int == bytes)
    }

    @Test func aStillImageGivesOneFrame() throws {
        for fixture in ["png/rgba8.png", "jpeg/quad-444.jpg"] {
            let directory = temporary.appendingPathComponent(fixture)
            let summary = try export(fixture, to: directory)
            #expect(summary["frames"] as? Int == 1)
            #expect(summary["loopCount"] == nil)
            #expect(try files(in: directory) == ["frame-0000.png"])
            let decoded = try registry.decode(Fixtures.data(fixture), options: ImageDecodeOptions())
            let frame = try registry.decode(Data(contentsOf: directory.appendingPathComponent("frame-0000.png")), options: ImageDecodeOptions())
            #expect(frame.pixels == decoded.pixels, "\(fixture)")
        }
    }

    @Test func thumbnailFramesHaveTheReducedSize() throws {
        let directory = temporary.appendingPathComponent("thumbs")
        let summary = try export("gif/anim.gif", to: directory, ["--thumbnail", "16x16"])
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let decoded = try registry.decode(Fixtures.data("gif/anim.gif"), options: options)
        #expect(summary["width"] as? Int == decoded.width && summary["height"] as? Int == decoded.height)
        let names = try files(in: directory)
        #expect(names.count == decoded.frames.count)
        for name in names {
            let frame = try registry.decode(Data(contentsOf: directory.appendingPathComponent(name)), options: ImageDecodeOptions())
            #expect(frame.pixelSize == decoded.pixelSize)
        }
    }

    @Test func textSummaryAndFailures() throws {
        let text = try run(["frames", Fixtures.url("gif/anim.gif").path, "--out", temporary.appendingPathComponent("text").path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("gif 32x24, 4 frames, loop 0, durations 100 ms x3, 500 ms"))

        let broken = temporary.appendingPathComponent("broken.gif")
        try Fixtures.data("gif/anim.gif").prefix(20).write(to: broken)
        let failed = try run(["frames", "--json", broken.path, "--out", temporary.appendingPathComponent("broken").path])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("\"ok\":false"))

        let usage = try run(["frames", Fixtures.url("gif/anim.gif").path, "--out", temporary.path, "--thumbnail", "0x3"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--thumbnail"))
    }
}
