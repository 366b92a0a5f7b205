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

    @Test("lossy animations keep alpha exactly, also where it changes little from frame to frame")
    func lossyAnimationAlpha() throws {
        // Frames of low, close alphas, at several qualities: libwebp's lossy animation encoder takes a pixel within
        // its tolerance of the previous canvas (1 at quality 100, 22 at quality 10) for unchanged.
        let alphas: [UInt8] = [3, 2, 130, 128, 0, 1]
        let frames = try alphas.enumerated().map { index, alpha in
            let pixels = try PixelBuffer(width: 8, height: 8) { buffer in
                for offset in stride(from: 0, to: buffer.count, by: 4) {
                    let x = UInt8(offset / 4 % 8)
                    buffer[offset] = 200 &+ x
                    buffer[offset + 1] = 100
                    buffer[offset + 2] = 50 &+ UInt8(index)
                    buffer[offset + 3] = alpha
                }
            }
            return ImageFrame(pixels: pixels, duration: 0.1)
        }
        let image = Image(frames: frames, loopCount: 2, hasAlpha: true)
        for quality in [0.1, 0.9, 1.0] {
            let decoded = try coder.decode(coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: quality)))
            #expect(decoded.frames.count == alphas.count, "quality \(quality)")
            #expect(decoded.loopCount == 2)
            #expect(decoded.frames.map(\.duration) == Array(repeating: 0.1, count: alphas.count))
            for (index, (frame, alpha)) in zip(decoded.frames, alphas).enumerated() {
                let found = Set((0..<64).map { frame.pixels[x: $0 % 8, y: $0 / 8].alpha })
                #expect(found == [alpha], "quality \(quality), frame \(index): alpha \(found.sorted()), written \(alpha)")
            }
        }

        // Two frames of two pixels, the first nearly transparent; the encoder's tolerance lets it blend the second
        // frame's alpha of 2 over the first's, which makes 3.
        let blended = try [
            [RGBAColor(red: 0, green: 0, blue: 12, alpha: 2), RGBAColor(red: 105, green: 2, blue: 255, alpha: 2)],
            [RGBAColor(red: 255, green: 2, blue: 0, alpha: 2), RGBAColor(red: 2, green: 255, blue: 254, alpha: 255)],
        ].map { colors in
            ImageFrame(pixels: try PixelBuffer(width: 1, height: 2) { buffer in
                for (index, color) in colors.enumerated() {
                    buffer[index * 4] = color.red
                    buffer[index * 4 + 1] = color.green
                    buffer[index * 4 + 2] = color.blue
                    buffer[index * 4 + 3] = color.alpha
                }
            }, duration: 0.02)
        }
        let pair = try coder.decode(coder.encode(
            Image(frames: blended, loopCount: 5, hasAlpha: true),
            as: .webp,
            options: ImageEncodeOptions(quality: 0.1)
        ))
        #expect(pair.frames.map { [$0.pixels[x: 0, y: 0].alpha, $0.pixels[x: 0, y: 1].alpha] } == [[2, 2], [2, 255]])

        // Frames with the same pixels may be merged, and keep their time.
        let repeated = Image(frames: [frames[0], frames[0], frames[1]], loopCount: 0, hasAlpha: true)
        let merged = try coder.decode(coder.encode(repeated, as: .webp, options: ImageEncodeOptions(quality: 0.5)))
        #expect(merged.frames.map(\.duration) == [0.2, 0.1])
        #expect(merged.frames.map { $0.pixels[x: 0, y: 0].alpha } == [3, 2])
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
