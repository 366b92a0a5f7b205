import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage convert` and `webimage thumb --format jxl` writing JPEG XL, and reading it back.
@Suite final class JXLToolTests {
    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("jxl-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    @Test func convertWritesJPEGXLByExtensionAndByName() throws {
        let byExtension = temporary.appendingPathComponent("photo.jxl")
        let first = try WebImageToolTests.run(["convert", Fixtures.url("jpeg/photo.jpg").path, byExtension.path])
        #expect(first.status == 0, "\(first.stderr)")
        let written = try #require(FileManager.default.contents(atPath: byExtension.path))
        #expect(ImageFormat.detect(written) == .jpegxl)

        let byName = temporary.appendingPathComponent("quad.out")
        let second = try WebImageToolTests.run(["convert", "--format", "jxl", "--lossless", Fixtures.url("png/rgba8.png").path, byName.path])
        #expect(second.status == 0, "\(second.stderr)")
        let lossless = try #require(FileManager.default.contents(atPath: byName.path))
        let source = try ImageCoderRegistry.shared.decode(Fixtures.data("png/rgba8.png"), options: ImageDecodeOptions())
        #expect(try JXLCoder().decode(lossless).pixels == source.pixels)

        let info = try WebImageToolTests.run(["info", "--json", byExtension.path])
        #expect(info.objects.first?["format"] as? String == "jxl")
    }

    @Test func thumbWritesJPEGXLThumbnails() throws {
        let run = try WebImageToolTests.run([
            "thumb", "--json", "--size", "32", "--format", "jxl", "--out", temporary.path, Fixtures.url("jxl/photo.jxl").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(run.objects.first)
        #expect(object["format"] as? String == "jxl")
        let output = try #require(object["output"] as? String)
        #expect(output.hasSuffix(".jxl"))
        let thumbnail = try JXLCoder().decode(try #require(FileManager.default.contents(atPath: output)))
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 24))
    }
}
