import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// `webimage` with HEIF: reading HEIC files, and writing them where libheif has an HEVC encoder.
@Suite final class HEIFToolTests {
    let temporary: URL

    init() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("heif-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: temporary)
    }

    @Test func convertsFromHEIC() throws {
        let output = temporary.appendingPathComponent("quad.png").path
        let converted = try WebImageToolTests.run(["convert", "--json", Fixtures.url("heif/quad-rotated.heic").path, output])
        #expect(converted.status == 0, "\(converted.stderr)")
        let image = try ImageCoderRegistry.shared.decode(try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(image.pixelSize == PixelSize(width: 48, height: 64))
    }

    @Test(.enabled(if: HEIFCoder().canEncode(to: .heic)))
    func thumbAndConvertWriteHEIC() throws {
        let thumbs = try WebImageToolTests.run([
            "thumb", "--json", "--size", "16", "--out", temporary.path, "--format", "heic", Fixtures.url("jpeg/quad-444.jpg").path,
        ])
        #expect(thumbs.status == 0, "\(thumbs.stderr)")
        let thumb = try #require(thumbs.objects.first)
        let written = try #require(thumb["output"] as? String)
        #expect(written.hasSuffix("quad-444-16.heic"))
        let data = try Data(contentsOf: URL(fileURLWithPath: written))
        #expect(ImageFormat.detect(data) == .heic)
        #expect(try HEIFCoder().decode(data).pixelSize == PixelSize(width: 16, height: 12))

        // From the output file's extension.
        let output = temporary.appendingPathComponent("photo.heic").path
        let converted = try WebImageToolTests.run(["convert", "--json", Fixtures.url("jpeg/quad-444.jpg").path, output])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.objects.first?["format"] as? String == "heic")
    }

    @Test func writingHEIFWithoutAnEncoderIsUnsupported() throws {
        // HEIF as such (not HEIC) has no encoder here; nor has HEIC where libheif lacks x265.
        let formats = HEIFCoder().canEncode(to: .heic) ? ["heif"] : ["heif", "heic"]
        for format in formats {
            let output = temporary.appendingPathComponent("out.\(format)").path
            let result = try WebImageToolTests.run(["convert", "--json", "--format", format, Fixtures.url("jpeg/quad-444.jpg").path, output])
            #expect(result.status != 0, "\(format)")
            let error = result.objects.first?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "unsupportedFormat", "\(format): \(result.stdout) \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
