#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: encoding")
struct PNGEncodingTests {
    let coder = PNGCoder()

    /// The colour type byte of an encoded file's IHDR.
    private func colorType(_ data: Data) -> UInt8 { data[data.startIndex + 25] }

    @Test("an image with alpha round-trips through RGBA unchanged")
    func rgbaRoundTrip() throws {
        let original = try coder.decode(Fixtures.data("png/rgba8.png"))
        let encoded = try coder.encode(original, as: .png, options: ImageEncodeOptions())
        #expect(ImageFormat.detect(encoded) == .png)
        #expect(colorType(encoded) == 6)
        let decoded = try coder.decode(encoded)
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels == original.pixels)
        // And once more: encoding is deterministic.
        #expect(try coder.encode(decoded, as: .png, options: ImageEncodeOptions()) == encoded)
    }

    @Test("an opaque image is written as RGB and round-trips unchanged")
    func rgbRoundTrip() throws {
        let original = try coder.decode(Fixtures.data("source/photo.png"))
        #expect(!original.hasAlpha)
        let encoded = try coder.encode(original, as: .png, options: ImageEncodeOptions())
        #expect(colorType(encoded) == 2)
        let decoded = try coder.decode(encoded)
        #expect(!decoded.hasAlpha)
        #expect(decoded.pixels == original.pixels)
    }

    @Test("every still fixture survives decode, encode, decode")
    func fixturesRoundTrip() throws {
        let paths = Fixtures.paths(in: "png", suffix: ".png").filter { !$0.contains("apng") }
        #expect(paths.count >= 20, "the PNG fixtures are missing")
        for path in paths {
            let original = try coder.decode(Fixtures.data(path))
            let decoded = try coder.decode(coder.encode(original, as: .png, options: ImageEncodeOptions()))
            #expect(decoded.pixels == original.pixels, "\(path)")
            #expect(decoded.hasAlpha == original.hasAlpha, "\(path)")
        }
    }

    @Test(
        "noise that zlib cannot compress round-trips, with and without alpha, in one pass of the encoder",
        arguments: [false, true])
    func incompressibleNoise(hasAlpha: Bool) throws {
        var state: UInt64 = hasAlpha ? 0x9E37_79B9_7F4A_7C15 : 0xD1B5_4A32_D192_ED03
        let pixels = try PixelBuffer(width: 301, height: 77) { buffer in
            for index in buffer.indices {
                // xorshift64*: bytes with no pattern deflate can use.
                state ^= state >> 12
                state ^= state << 25
                state ^= state >> 27
                let byte = UInt8(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 56)
                buffer[index] = hasAlpha || index % 4 != 3 ? byte : 255
            }
        }
        let original = Image(pixels: pixels, hasAlpha: hasAlpha)
        let encoded = try coder.encode(original, as: .png, options: ImageEncodeOptions())
        // Stored blocks: larger than the filtered pixels, so the first buffer had to be zlib's bound.
        #expect(encoded.count > 301 * 77 * (hasAlpha ? 4 : 3))
        let decoded = try coder.decode(encoded)
        #expect(decoded.pixels == original.pixels)
        #expect(decoded.hasAlpha == hasAlpha)
    }

    @Test("an image made in memory encodes to its colour")
    func inMemoryImage() throws {
        let color = RGBAColor(red: 12, green: 200, blue: 99)
        let image = Image(pixels: try PixelBuffer(width: 7, height: 5, color: color), hasAlpha: false)
        let decoded = try coder.decode(coder.encode(image, as: .png, options: ImageEncodeOptions()))
        #expect(decoded.pixelSize == PixelSize(width: 7, height: 5))
        expectPixels(decoded.pixels, [ExpectedPixel(x: 6, y: 4, color), ExpectedPixel(x: 0, y: 0, color)])
    }

    @Test("maxPixelSize scales the image down before encoding")
    func maxPixelSize() throws {
        let original = try coder.decode(Fixtures.data("source/photo.png"))
        let encoded = try coder.encode(original, as: .png, options: ImageEncodeOptions(maxPixelSize: PixelSize(square: 100)))
        let info = try coder.info(for: encoded)
        #expect(info.pixelSize == PixelSize(width: 100, height: 75))
        let decoded = try coder.decode(encoded)
        #expect(decoded.pixels == (try original.pixels.resampled(to: PixelSize(width: 100, height: 75), hasAlpha: false)))
    }

    @Test("with firstFrameOnly an animation is written as its first frame, a plain PNG")
    func animationFirstFrame() throws {
        let animation = try coder.decode(Fixtures.data("png/apng-dispose.png"))
        #expect(animation.frames.count == 4)
        let encoded = try coder.encode(animation, as: .png, options: ImageEncodeOptions(firstFrameOnly: true))
        let info = try coder.info(for: encoded)
        #expect(info.frameCount == 1)
        let decoded = try coder.decode(encoded)
        #expect(decoded.frames.count == 1)
        #expect(decoded.pixels == animation.frames[0].pixels)
    }

    @Test("other formats are refused with unsupportedFormat")
    func otherFormats() throws {
        let image = try coder.decode(Fixtures.data("png/rgb8.png"))
        for format in [ImageFormat.jpeg, .gif, .webp, .undefined] {
            #expect {
                try coder.encode(image, as: format, options: ImageEncodeOptions())
            } throws: { ($0 as? WebImageError)?.code == .unsupportedFormat }
        }
    }
}
