#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

@Suite struct GIFEncodingTests {
    let coder = GIFCoder()

    /// A `width` x `height` image with more than 256 colours: red across, green down, blue along the diagonal.
    func gradient(width: Int = 96, height: Int = 64) throws -> Image {
        let pixels = try PixelBuffer(width: width, height: height) { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    bytes[i] = UInt8(x * 255 / (width - 1))
                    bytes[i + 1] = UInt8(y * 255 / (height - 1))
                    bytes[i + 2] = UInt8((x + y) * 255 / (width + height - 2))
                    bytes[i + 3] = 255
                }
            }
        }
        return Image(pixels: pixels, hasAlpha: false)
    }

    @Test func stillRoundTripKeepsExactColours() throws {
        let source = try coder.decode(Fixtures.data("gif/quad.gif"))
        let data = try coder.encode(source, as: .gif, options: ImageEncodeOptions())
        #expect(Array(data.prefix(6)) == Array("GIF87a".utf8))
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize == source.pixelSize)
        #expect(decoded.frames.count == 1)
        #expect(!decoded.hasAlpha)
        #expect(decoded.pixels == source.pixels)
    }

    @Test func transparencyRoundTrips() throws {
        let source = try coder.decode(Fixtures.data("gif/quad-alpha.gif"))
        let data = try coder.encode(source, as: .gif, options: ImageEncodeOptions())
        #expect(Array(data.prefix(6)) == Array("GIF89a".utf8))
        let decoded = try coder.decode(data)
        #expect(decoded.hasAlpha)
        expectPixels(decoded.pixels, quadrants(decoded.pixelSize, [.red, .green, .blue, .clear]))
    }

    @Test func alphaUnderHalfBecomesTransparent() throws {
        let pixels = try PixelBuffer(width: 4, height: 1) { bytes in
            let alphas: [UInt8] = [255, 128, 127, 0]
            for x in 0..<4 {
                bytes[x * 4] = 200
                bytes[x * 4 + 1] = 100
                bytes[x * 4 + 2] = 50
                bytes[x * 4 + 3] = alphas[x]
            }
        }
        let decoded = try coder.decode(coder.encode(Image(pixels: pixels, hasAlpha: true), as: .gif, options: ImageEncodeOptions()))
        let opaque = RGBAColor(red: 200, green: 100, blue: 50)
        expectPixels(decoded.pixels, [
            ExpectedPixel(x: 0, y: 0, opaque), ExpectedPixel(x: 1, y: 0, opaque),
            ExpectedPixel(x: 2, y: 0, .clear), ExpectedPixel(x: 3, y: 0, .clear),
        ])
        // An image that says it has no alpha is written opaque, whatever its alpha bytes.
        let flat = try coder.decode(coder.encode(Image(pixels: pixels, hasAlpha: false), as: .gif, options: ImageEncodeOptions()))
        #expect(!flat.hasAlpha)
        #expect(flat.pixels[x: 3, y: 0] == opaque)
    }

    @Test func animationRoundTrip() throws {
        let source = try coder.decode(Fixtures.data("gif/anim-loop3.gif"))
        let decoded = try coder.decode(coder.encode(source, as: .gif, options: ImageEncodeOptions()))
        #expect(decoded.frames.count == 4)
        #expect(decoded.loopCount == 3)
        #expect(decoded.frames.map(\.duration) == source.frames.map(\.duration))
        #expect(!decoded.hasAlpha)
        for (a, b) in zip(decoded.frames, source.frames) {
            #expect(a.pixels == b.pixels)
        }
    }

    @Test(arguments: ["gif/dispose-none.gif", "gif/dispose-background.gif", "gif/dispose-previous.gif"])
    func animationWithTransparencyRoundTrips(path: String) throws {
        // Frames are written whole; a frame before one with transparent pixels is disposed to background, so
        // the transparent pixels come back transparent and not showing the frame before.
        let source = try coder.decode(Fixtures.data(path))
        let decoded = try coder.decode(coder.encode(source, as: .gif, options: ImageEncodeOptions()))
        #expect(decoded.frames.count == source.frames.count)
        #expect(decoded.loopCount == source.loopCount)
        // The decoder says alpha from the file's structure; the encoder writes transparency only where a frame
        // has transparent pixels (the last frame's transparent index covers nothing in two of the fixtures).
        #expect(decoded.hasAlpha == source.frames.contains { !$0.pixels.isOpaque })
        for (index, (a, b)) in zip(decoded.frames, source.frames).enumerated() {
            #expect(a.pixels == b.pixels, "frame \(index)")
        }
    }

    @Test func photoWithAtMost256ColoursRoundTripsExactly() throws {
        let source = try coder.decode(Fixtures.data("gif/photo.gif"))
        let decoded = try coder.decode(coder.encode(source, as: .gif, options: ImageEncodeOptions()))
        #expect(decoded.pixels == source.pixels)
    }

    @Test func manyColoursAreReducedCloseToTheSource() throws {
        let source = try gradient()
        let data = try coder.encode(source, as: .gif, options: ImageEncodeOptions())
        let decoded = try coder.decode(data)
        var total = 0
        var worst = 0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let d = decoded.pixels[x: x, y: y].distance(to: source.pixels[x: x, y: y])
                total += d
                worst = max(worst, d)
            }
        }
        let mean = Double(total) / Double(source.pixelSize.pixelCount)
        #expect(mean < 7, "mean channel error \(mean)")
        #expect(worst < 24, "largest channel error \(worst)")
        // Deterministic: the same image encodes to the same bytes.
        #expect(try coder.encode(source, as: .gif, options: ImageEncodeOptions()) == data)
    }

    @Test func manyColoursWithTransparency() throws {
        let opaque = try gradient(width: 64, height: 64)
        let pixels = try PixelBuffer(width: 64, height: 64) { bytes in
            opaque.pixels.withUnsafeBytes { source in bytes.copyMemory(from: source) }
            for y in 0..<32 { for x in 0..<32 { bytes[(y * 64 + x) * 4 + 3] = 0 } }
        }
        let decoded = try coder.decode(coder.encode(Image(pixels: pixels, hasAlpha: true), as: .gif, options: ImageEncodeOptions()))
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels[x: 10, y: 10].alpha == 0)
        #expect(decoded.pixels[x: 50, y: 50].distance(to: opaque.pixels[x: 50, y: 50]) < 48)
    }

    @Test func optionsFirstFrameOnlyAndMaxPixelSize() throws {
        let source = try coder.decode(Fixtures.data("gif/anim.gif"))
        let still = try coder.encode(source, as: .gif, options: ImageEncodeOptions(firstFrameOnly: true))
        let info = try coder.info(for: still)
        #expect(info.frameCount == 1)
        #expect(try coder.decode(still).pixels == source.frames[0].pixels)
        let small = try coder.decode(coder.encode(source, as: .gif, options: ImageEncodeOptions(maxPixelSize: PixelSize(square: 16))))
        #expect(small.pixelSize == PixelSize(width: 16, height: 12))
        #expect(small.frames.count == 4)
        expectPixels(small.frames[2].pixels, quadrants(small.pixelSize, [.blue, .blue, .blue, .blue]), tolerance: 2)
        // Quality does not apply to GIF.
        #expect(try coder.encode(source, as: .gif, options: ImageEncodeOptions(quality: 0.1)) == coder.encode(source, as: .gif, options: ImageEncodeOptions()))
    }

    @Test func delaysAreWholeCentiseconds() {
        #expect(GIFEncoder.centiseconds(0) == 0)
        #expect(GIFEncoder.centiseconds(-1) == 0)
        #expect(GIFEncoder.centiseconds(.nan) == 0)
        #expect(GIFEncoder.centiseconds(.infinity) == 0)
        #expect(GIFEncoder.centiseconds(0.004) == 2)
        #expect(GIFEncoder.centiseconds(0.011) == 2)
        #expect(GIFEncoder.centiseconds(0.1) == 10)
        #expect(GIFEncoder.centiseconds(0.125) == 13)
        #expect(GIFEncoder.centiseconds(1_000) == 65535)
    }

    @Test func durationsRoundTripThroughTheDelayRules() throws {
        let frames = try [0.0, 0.004, 0.05, 0.123, 2].map { duration in
            ImageFrame(pixels: try PixelBuffer(width: 2, height: 2, color: .red), duration: duration)
        }
        let source = Image(frames: frames, loopCount: 0, hasAlpha: false)
        let decoded = try coder.decode(coder.encode(source, as: .gif, options: ImageEncodeOptions()))
        #expect(decoded.loopCount == 0)
        // 0 is written as 0 (shown for 0.1 s); 0.004 as 2 centiseconds; the rest to the nearest centisecond.
        #expect(decoded.frames.map(\.duration) == [0.1, 0.02, 0.05, 0.12, 2])
    }

    @Test func refusesOtherFormatsAndOversizedImages() throws {
        let image = try coder.decode(Fixtures.data("gif/quad.gif"))
        gifExpectError(.unsupportedFormat) { try coder.encode(image, as: .png, options: ImageEncodeOptions()) }
        let wide = Image(pixels: try PixelBuffer(width: 65536, height: 1, color: .red), hasAlpha: false)
        gifExpectError(.encodingFailed) { try coder.encode(wide, as: .gif, options: ImageEncodeOptions()) }
    }
}
