#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Encoding, and round trips through the decoder.
@Suite("WebP encoding")
struct WebPEncodingTests {
    let coder = WebPCoder()

    /// An image of seeded random pixels, including transparent pixels with colour under them.
    static func noise(width: Int, height: Int, seed: UInt64) throws -> Image {
        let bytes = CorruptData.randomBytes(count: width * height * 4, seed: seed)
        let pixels = try PixelBuffer(width: width, height: height) { buffer in
            buffer.copyBytes(from: bytes)
        }
        return Image(pixels: pixels, hasAlpha: true)
    }

    @Test("lossy round trip keeps the colours")
    func lossy() throws {
        let original = try coder.decode(Fixtures.data("webp/quad-lossless.webp"))
        let data = try coder.encode(original, as: .webp, options: ImageEncodeOptions(quality: 0.9))
        #expect(coder.canDecode(data))
        let features = try coder.info(for: data)
        #expect(!features.hasAlpha)
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize == original.pixelSize)
        expectPixels(decoded.pixels, quadrants(decoded.pixelSize, WebPCoderTests.quad(.white)), tolerance: 10)

        let photo = try coder.decode(Fixtures.data("webp/photo.webp"))
        let again = try coder.decode(coder.encode(photo, as: .webp, options: ImageEncodeOptions(quality: 0.9)))
        #expect(WebPPixelStatistics.meanDifference(again.pixels, photo.pixels) < 3)
    }

    @Test("lossy quality maps to libwebp's quality")
    func quality() throws {
        let photo = try coder.decode(Fixtures.data("webp/photo.webp"))
        let low = try coder.encode(photo, as: .webp, options: ImageEncodeOptions(quality: 0.1))
        let high = try coder.encode(photo, as: .webp, options: ImageEncodeOptions(quality: 0.95))
        #expect(low.count < high.count)
        let lowImage = try coder.decode(low)
        let highImage = try coder.decode(high)
        #expect(WebPPixelStatistics.meanDifference(highImage.pixels, photo.pixels)
            < WebPPixelStatistics.meanDifference(lowImage.pixels, photo.pixels))
        // Out-of-range qualities are clamped, not refused.
        #expect(try coder.decode(coder.encode(photo, as: .webp, options: ImageEncodeOptions(quality: 7))).width == 320)
        #expect(try coder.decode(coder.encode(photo, as: .webp, options: ImageEncodeOptions(quality: -1))).width == 320)
    }

    @Test("lossy encoding keeps alpha")
    func lossyAlpha() throws {
        let original = try coder.decode(Fixtures.data("webp/quad-semi-lossless.webp"))
        let decoded = try coder.decode(coder.encode(original, as: .webp, options: ImageEncodeOptions(quality: 0.8)))
        #expect(decoded.hasAlpha)
        expectPixels(decoded.pixels, quadrants(decoded.pixelSize, WebPCoderTests.quad(WebPCoderTests.semiRed)), tolerance: 10)
        #expect(decoded.pixels[x: 48, y: 36].alpha == 127)
    }

    @Test("lossless round trip is exact, transparent pixels included")
    func lossless() throws {
        for name in ["quad-alpha-lossless", "quad-semi-lossless", "quad-lossless"] {
            let original = try coder.decode(Fixtures.data("webp/\(name).webp"))
            let data = try coder.encode(original, as: .webp, options: ImageEncodeOptions(lossless: true))
            #expect(try coder.decode(data).pixels == original.pixels, "\(name)")
        }
        let noise = try Self.noise(width: 37, height: 19, seed: 9)
        let decoded = try coder.decode(coder.encode(noise, as: .webp, options: ImageEncodeOptions(lossless: true)))
        #expect(decoded.pixels == noise.pixels)
        #expect(decoded.hasAlpha)
    }

    @Test("scales down to the maximum size before encoding")
    func maxPixelSize() throws {
        let photo = try coder.decode(Fixtures.data("webp/photo.webp"))
        var options = ImageEncodeOptions(quality: 0.8)
        options.maxPixelSize = PixelSize(square: 100)
        #expect(try coder.decode(coder.encode(photo, as: .webp, options: options)).pixelSize == PixelSize(width: 100, height: 75))
    }

    @Test("animated round trip keeps frames, durations, loop count and colours")
    func animated() throws {
        let original = try coder.decode(Fixtures.data("webp/anim-img2webp.webp"))
        for options in [ImageEncodeOptions(lossless: true), ImageEncodeOptions(quality: 0.9)] {
            let data = try coder.encode(original, as: .webp, options: options)
            let info = try coder.info(for: data)
            #expect(info.frameCount == 4)
            #expect(info.loopCount == 3)
            let decoded = try coder.decode(data)
            #expect(decoded.frames.count == 4)
            #expect(decoded.loopCount == 3)
            #expect(decoded.frames.map(\.duration) == [0.08, 0.1, 0.12, 0.2])
            for (frame, color) in zip(decoded.frames, [RGBAColor.red, .green, .blue, .white]) {
                expectPixels(frame.pixels, [ExpectedPixel(x: 16, y: 12, color)], tolerance: options.lossless ? 0 : 10)
            }
        }

        // A composed animation with transparency, losslessly: every canvas comes back.
        let compose = try coder.decode(Fixtures.data("webp/anim-compose.webp"))
        let decoded = try coder.decode(coder.encode(compose, as: .webp, options: ImageEncodeOptions(lossless: true)))
        #expect(decoded.frames.count == 4)
        #expect(decoded.loopCount == 2)
        for (frame, expected) in zip(decoded.frames, WebPAnimationTests.composeExpectations) {
            expectPixels(frame.pixels, expected)
        }
    }

    @Test("encodes only the first frame when asked, and scales animations")
    func animationOptions() throws {
        let original = try coder.decode(Fixtures.data("webp/anim-gif2webp.webp"))
        var options = ImageEncodeOptions(lossless: true, firstFrameOnly: true)
        let still = try coder.decode(coder.encode(original, as: .webp, options: options))
        #expect(!still.isAnimated)
        expectPixels(still.pixels, [ExpectedPixel(x: 16, y: 12, .red)])

        options.firstFrameOnly = false
        options.maxPixelSize = PixelSize(square: 16)
        let small = try coder.decode(coder.encode(original, as: .webp, options: options))
        #expect(small.frames.count == 3)
        #expect(small.pixelSize == PixelSize(width: 16, height: 12))
        #expect(small.frames.map(\.duration) == [0.1, 0.2, 0.3])
    }

    @Test("refuses other formats and sizes WebP cannot hold")
    func refusals() throws {
        let image = try coder.decode(Fixtures.data("webp/quad-lossless.webp"))
        let format = #expect(throws: WebImageError.self) { try coder.encode(image, as: .png, options: ImageEncodeOptions()) }
        #expect(format?.code == .unsupportedFormat)

        let wide = Image(pixels: try PixelBuffer(width: 16384, height: 1, color: .red), hasAlpha: false)
        let size = #expect(throws: WebImageError.self) { try coder.encode(wide, as: .webp, options: ImageEncodeOptions()) }
        #expect(size?.code == .encodingFailed)
        #expect(size?.message.hasPrefix("WEBP:") == true)
    }
}
