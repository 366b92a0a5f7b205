// Foundation, not FoundationEssentials: the capability test runs heif-enc with Process.
import Foundation
import Testing
import WebImageCodecs
import WebImageTestSupport

/// HEIC encoding through libheif's HEVC encoder, where this process has one; refused with unsupportedFormat
/// where it has not.
@Suite("HEIF encoding")
struct HEIFEncodingTests {
    let coder = HEIFCoder()

    /// Whether heif-enc, the tool over the same libheif, lists an HEVC encoder: the coder must agree.
    static var toolListsHEVCEncoder: Bool? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["heif-enc", "--list-encoders"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let section = output.components(separatedBy: "AVIF encoders:").first,
              section.contains("HEIC encoders:") else { return nil }
        return section.contains("- ")
    }

    @Test("canEncode(to: .heic) says what libheif has")
    func capability() {
        if let tool = Self.toolListsHEVCEncoder {
            #expect(coder.canEncode(to: .heic) == tool)
        }
        #expect(!coder.canEncode(to: .heif))
        #expect(!coder.canEncode(to: .jpeg))
    }

    @Test("other formats are refused with unsupportedFormat")
    func otherFormats() throws {
        let image = try coder.decode(Fixtures.data("heif/quad.heic"))
        for format in [ImageFormat.heif, .png, .avif] {
            let error = #expect(throws: WebImageError.self) { try coder.encode(image, as: format, options: ImageEncodeOptions()) }
            #expect(error?.code == .unsupportedFormat, "\(format)")
        }
    }

    @Test("round trips opaque and transparent images", .enabled(if: HEIFCoder().canEncode(to: .heic)))
    func roundTrip() throws {
        for (source, bottomRight, hasAlpha) in [("quad.png", RGBAColor.white, false), ("quad-alpha.png", .clear, true)] {
            let png = try PNGCoder().decode(Fixtures.data("source/\(source)"))
            let encoded = try coder.encode(png, as: .heic, options: ImageEncodeOptions(quality: 0.9))
            #expect(ImageFormat.detect(encoded) == .heic)
            let back = try coder.decode(encoded)
            #expect(back.pixelSize == png.pixelSize, "\(source)")
            #expect(back.hasAlpha == hasAlpha, "\(source)")
            expectPixels(back.pixels, quadrants(back.pixelSize, [.red, .green, .blue, bottomRight]), tolerance: 16)
        }
    }

    @Test("quality changes the size; odd sizes and scaling work", .enabled(if: HEIFCoder().canEncode(to: .heic)))
    func qualityAndSizes() throws {
        let photo = try coder.decode(Fixtures.data("heif/photo.heic"))
        let low = try coder.encode(photo, as: .heic, options: ImageEncodeOptions(quality: 0.2))
        let high = try coder.encode(photo, as: .heic, options: ImageEncodeOptions(quality: 0.95))
        #expect(low.count < high.count)

        var scaled = ImageEncodeOptions(quality: 0.8)
        scaled.maxPixelSize = PixelSize(square: 101)
        let small = try coder.decode(coder.encode(photo, as: .heic, options: scaled))
        #expect(small.pixelSize == PixelSize(width: 101, height: 76))

        let odd = Image(pixels: try PixelBuffer(width: 3, height: 5, color: .blue), hasAlpha: false)
        let decoded = try coder.decode(coder.encode(odd, as: .heic, options: ImageEncodeOptions()))
        #expect(decoded.pixelSize == PixelSize(width: 3, height: 5))
        expectPixels(decoded.pixels, [ExpectedPixel(x: 1, y: 2, .blue)], tolerance: 16)
    }

    @Test("a file size limit is met by lowering the quality", .enabled(if: HEIFCoder().canEncode(to: .heic)))
    func fileSizeLimit() throws {
        let photo = try coder.decode(Fixtures.data("heif/photo.heic"))
        let full = try coder.encode(photo, as: .heic, options: ImageEncodeOptions(quality: 1))
        var options = ImageEncodeOptions(quality: 1)
        options.maxFileSize = full.count / 3
        let limited = try coder.encode(photo, as: .heic, options: options)
        #expect(limited.count <= full.count / 3)
        #expect(try coder.decode(limited).pixelSize.width > 0)
    }
}
