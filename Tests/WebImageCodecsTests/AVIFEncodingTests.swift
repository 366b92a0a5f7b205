#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Encoding: quality, alpha, lossless, sequences, and round trips through the decoder.
@Suite("AVIF encoding")
struct AVIFEncodingTests {
    let coder = AVIFCoder()

    @Test("encodes an opaque image that decodes back to its colours")
    func opaqueRoundTrip() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/quad.png"))
        let data = try coder.encode(source, as: .avif, options: ImageEncodeOptions(quality: 0.8))
        #expect(coder.canDecode(data))
        let image = try coder.decode(data)
        #expect(image.pixelSize == source.pixelSize)
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
        expectPixels(image.pixels, quadrants(image.pixelSize, AVIFCoderTests.quad(.white)), tolerance: 16)
    }

    @Test("keeps the alpha channel of an image with alpha, and writes none for an opaque one")
    func alpha() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/quad-alpha.png"))
        #expect(source.hasAlpha)
        let data = try coder.encode(source, as: .avif, options: ImageEncodeOptions(quality: 0.8))
        #expect(try coder.info(for: data).hasAlpha)
        let image = try coder.decode(data)
        #expect(image.pixels[x: 48, y: 36].alpha == 0)
        #expect(image.pixels[x: 16, y: 12].alpha == 255)
        expectPixels(image.pixels, quadrants(image.pixelSize, AVIFCoderTests.quad(.clear)), tolerance: 16)

        let opaque = try PNGCoder().decode(Fixtures.data("source/quad.png"))
        #expect(!opaque.hasAlpha)
        #expect(try !coder.info(for: coder.encode(opaque, as: .avif, options: ImageEncodeOptions())).hasAlpha)
    }

    @Test("a lower quality makes a smaller file of a photo")
    func quality() throws {
        let photo = try PNGCoder().decode(Fixtures.data("source/photo.png"))
        let high = try coder.encode(photo, as: .avif, options: ImageEncodeOptions(quality: 0.9))
        let low = try coder.encode(photo, as: .avif, options: ImageEncodeOptions(quality: 0.2))
        #expect(low.count < high.count, "\(low.count) bytes at 0.2, \(high.count) at 0.9")
        let decoded = try coder.decode(high)
        #expect(WebPPixelStatistics.meanDifference(decoded.pixels, photo.pixels) < 4)
    }

    @Test("lossless encoding gives the pixels back exactly")
    func lossless() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/photo.png"))
        let data = try coder.encode(source, as: .avif, options: ImageEncodeOptions(lossless: true))
        let image = try coder.decode(data)
        #expect(image.pixels == source.pixels)
    }

    @Test("encodes an animation as a sequence with its durations")
    func sequence() throws {
        let animation = try GIFCoder().decode(Fixtures.data("gif/anim-loop3.gif"))
        #expect(animation.frames.count > 1)
        let data = try coder.encode(animation, as: .avif, options: ImageEncodeOptions(quality: 0.9))
        let info = try coder.info(for: data)
        #expect(info.frameCount == animation.frames.count)
        let image = try coder.decode(data)
        #expect(image.frames.map(\.duration) == animation.frames.map(\.duration))

        let first = try coder.encode(animation, as: .avif, options: ImageEncodeOptions(firstFrameOnly: true))
        #expect(try coder.info(for: first).frameCount == 1)
    }

    @Test("scales down to the maximum size, and meets a file size limit")
    func sizes() throws {
        let photo = try PNGCoder().decode(Fixtures.data("source/photo.png"))
        let small = try coder.encode(photo, as: .avif, options: ImageEncodeOptions(maxPixelSize: PixelSize(square: 64)))
        #expect(try coder.info(for: small).pixelSize == PixelSize(width: 64, height: 48))

        let unlimited = try coder.encode(photo, as: .avif, options: ImageEncodeOptions(quality: 1))
        let limit = unlimited.count / 3
        let limited = try coder.encode(photo, as: .avif, options: ImageEncodeOptions(quality: 1, maxFileSize: limit))
        #expect(limited.count <= limit, "\(limited.count) bytes for a limit of \(limit)")
        #expect(try coder.decode(limited).pixelSize.width > 0)
    }

    @Test("refuses other formats")
    func otherFormats() throws {
        let image = try PNGCoder().decode(Fixtures.data("source/quad.png"))
        let error = #expect(throws: WebImageError.self) { try coder.encode(image, as: .webp, options: ImageEncodeOptions()) }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test("the encoder speed is clamped to libavif's range")
    func speed() throws {
        #expect(AVIFCoder().encoderSpeed == AVIFCoder.defaultEncoderSpeed)
        #expect(AVIFCoder(encoderSpeed: 42).encoderSpeed == 10)
        #expect(AVIFCoder(encoderSpeed: -1).encoderSpeed == 0)
        let image = try PNGCoder().decode(Fixtures.data("source/quad.png"))
        let slow = try AVIFCoder(encoderSpeed: 6).encode(image, as: .avif, options: ImageEncodeOptions(quality: 0.8))
        #expect(try coder.decode(slow).pixelSize == image.pixelSize)
    }
}
