import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The `webimage` tool writing and reading AVIF.
extension WebImageToolTests {
    @Test func convertAndThumbWriteAVIF() throws {
        let output = temporary.appendingPathComponent("quad.avif").path
        let converted = try Self.run(["convert", "--json", Fixtures.url("source/quad.png").path, output])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.objects.first?["format"] as? String == "avif")
        let info = try Self.run(["info", "--json", output])
        #expect(info.objects.first?["format"] as? String == "avif")
        #expect(info.objects.first?["width"] as? Int == 64 && info.objects.first?["height"] as? Int == 48)

        let thumbs = try Self.run(["thumb", "--json", "--size", "16", "--out", temporary.path, "--format", "avif", Fixtures.url("avif/photo.avif").path])
        #expect(thumbs.status == 0, "\(thumbs.stderr)")
        let thumb = try #require(thumbs.objects.first)
        #expect(thumb["width"] as? Int == 16 && thumb["height"] as? Int == 12)
        let written = try #require(thumb["output"] as? String)
        #expect(written.hasSuffix("photo-16.avif"))
        #expect(ImageFormat.detect(try Data(contentsOf: URL(fileURLWithPath: written))) == .avif)
    }
}
