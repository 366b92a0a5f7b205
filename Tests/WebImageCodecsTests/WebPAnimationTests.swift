#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Animations: compositing, durations, loop counts, budgets and the frame provider.
@Suite("WebP animations")
struct WebPAnimationTests {
    let coder = WebPCoder()

    /// The canvases of anim-compose.webp, worked out by hand from the frames in Scripts/fixtures/webp.sh.
    static let composeExpectations: [[ExpectedPixel]] = [
        // 0: the whole canvas blue.
        [ExpectedPixel(x: 5, y: 5, .blue), ExpectedPixel(x: 20, y: 20, .blue), ExpectedPixel(x: 40, y: 20, .blue),
         ExpectedPixel(x: 63, y: 47, .blue)],
        // 1: red at x 16..<32, y 12..<36; the frame's transparent right half blends to the blue below.
        [ExpectedPixel(x: 20, y: 20, .red), ExpectedPixel(x: 16, y: 12, .red), ExpectedPixel(x: 31, y: 35, .red),
         ExpectedPixel(x: 40, y: 20, .blue), ExpectedPixel(x: 15, y: 12, .blue), ExpectedPixel(x: 20, y: 36, .blue),
         ExpectedPixel(x: 5, y: 5, .blue)],
        // 2: frame 1's rectangle disposed to transparent; frame 2 drawn without blending at (0, 0): its
        // transparent left half replaces the blue, its right half is green.
        [ExpectedPixel(x: 20, y: 20, .clear), ExpectedPixel(x: 40, y: 20, .clear), ExpectedPixel(x: 47, y: 35, .clear),
         ExpectedPixel(x: 4, y: 4, .clear), ExpectedPixel(x: 7, y: 15, .clear), ExpectedPixel(x: 12, y: 4, .green),
         ExpectedPixel(x: 15, y: 15, .green), ExpectedPixel(x: 4, y: 16, .blue), ExpectedPixel(x: 60, y: 40, .blue),
         ExpectedPixel(x: 20, y: 40, .blue), ExpectedPixel(x: 48, y: 20, .blue)],
        // 3: white at x 40..<56, y 30..<42, also over the cleared area; the rest as before.
        [ExpectedPixel(x: 44, y: 33, .white), ExpectedPixel(x: 40, y: 30, .white), ExpectedPixel(x: 55, y: 41, .white),
         ExpectedPixel(x: 20, y: 20, .clear), ExpectedPixel(x: 39, y: 30, .clear), ExpectedPixel(x: 4, y: 4, .clear),
         ExpectedPixel(x: 12, y: 4, .green), ExpectedPixel(x: 60, y: 45, .blue), ExpectedPixel(x: 56, y: 41, .blue)],
    ]

    @Test("composites offsets, blending and disposal as the file says")
    func compose() throws {
        let image = try coder.decode(Fixtures.data("webp/anim-compose.webp"))
        #expect(image.frames.count == 4)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.loopCount == 2)
        #expect(image.hasAlpha)
        #expect(image.format == .webp)
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.1, 0.1])
        for (frame, expected) in zip(image.frames, Self.composeExpectations) {
            expectPixels(frame.pixels, expected)
        }
    }

    @Test("reads durations, applying the 11 ms rule, and the loop count")
    func img2webp() throws {
        let image = try coder.decode(Fixtures.data("webp/anim-img2webp.webp"))
        #expect(image.frames.count == 4)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(image.loopCount == 3)
        #expect(!image.hasAlpha)
        // 80 ms, 5 ms (under 11 ms: shown for 100 ms), 120 ms, 200 ms.
        #expect(image.frames.map(\.duration) == [0.08, 0.1, 0.12, 0.2])
        for (frame, color) in zip(image.frames, [RGBAColor.red, .green, .blue, .white]) {
            expectPixels(frame.pixels, [ExpectedPixel(x: 16, y: 12, color), ExpectedPixel(x: 0, y: 0, color)])
        }
        #expect(image.uniqueFrameCount == 4)
    }

    @Test("decodes an animation converted from GIF, looping forever")
    func gif2webp() throws {
        let image = try coder.decode(Fixtures.data("webp/anim-gif2webp.webp"))
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 0)
        #expect(image.frames.map(\.duration) == [0.1, 0.2, 0.3])
        for (frame, color) in zip(image.frames, [RGBAColor.red, .green, .blue]) {
            expectPixels(frame.pixels, [ExpectedPixel(x: 16, y: 12, color), ExpectedPixel(x: 31, y: 23, color)])
        }
    }

    @Test("decodes only the first frame when asked")
    func firstFrameOnly() throws {
        let image = try coder.decode(
            Fixtures.data("webp/anim-compose.webp"),
            options: ImageDecodeOptions(firstFrameOnly: true)
        )
        #expect(image.frames.count == 1)
        #expect(image.loopCount == 0)
        expectPixels(image.pixels, Self.composeExpectations[0])
    }

    @Test("scales every frame of an animation")
    func thumbnail() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 32)
        let image = try coder.decode(Fixtures.data("webp/anim-compose.webp"), options: options)
        #expect(image.frames.count == 4)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        // Halved coordinates of points well inside the regions.
        expectPixels(image.frames[1].pixels, [ExpectedPixel(x: 12, y: 12, .red), ExpectedPixel(x: 2, y: 2, .blue)], tolerance: 8)
        expectPixels(image.frames[3].pixels, [ExpectedPixel(x: 23, y: 17, .white), ExpectedPixel(x: 10, y: 10, .clear),
                                              ExpectedPixel(x: 30, y: 22, .blue)], tolerance: 8)
    }

    @Test("checks the canvas and the frames against the pixel limit before decoding")
    func budget() throws {
        let data = Fixtures.data("webp/anim-compose.webp")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 64 * 48 * 3            // the canvas fits, four frames do not
        let error = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)

        options.firstFrameOnly = true
        #expect(try coder.decode(data, options: options).frames.count == 1)

        options.firstFrameOnly = false
        options.thumbnailPixelSize = PixelSize(square: 32)  // four 32 x 24 frames fit
        #expect(try coder.decode(data, options: options).frames.count == 4)

        options.maxPixelCount = 64 * 48 - 1                 // libwebp's canvas itself is over the limit
        let canvas = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(canvas?.code == .imageTooLarge)
    }

    @Test("shares the buffer of frames that do not change the canvas")
    func sharedFrames() throws {
        // Frame 1 draws one transparent pixel with blending, which leaves the canvas as it was.
        let red = try WebPRIFF.losslessImage(PixelBuffer(width: 8, height: 8, color: .red))
        let clear = try WebPRIFF.losslessImage(PixelBuffer(width: 1, height: 1, color: .clear))
        let blue = try WebPRIFF.losslessImage(PixelBuffer(width: 8, height: 8, color: .blue))
        let data = WebPRIFF.animation(width: 8, height: 8, frames: [
            WebPRIFF.frame(red, width: 8, height: 8, duration: 50),
            WebPRIFF.frame(clear, x: 2, y: 2, width: 1, height: 1, duration: 50),
            WebPRIFF.frame(blue, width: 8, height: 8, duration: 50),
        ])
        let image = try coder.decode(data)
        #expect(image.frames.count == 3)
        #expect(image.frames[0].pixels === image.frames[1].pixels)
        #expect(image.uniqueFrameCount == 2)
        #expect(image.memoryCost == 2 * 8 * 8 * 4)
        expectPixels(image.frames[1].pixels, [ExpectedPixel(x: 2, y: 2, .red)])
        expectPixels(image.frames[2].pixels, [ExpectedPixel(x: 2, y: 2, .blue)])
    }

    // MARK: Provider

    @Test("provides the same frames as a full decode, in order and going back")
    func provider() throws {
        let data = Fixtures.data("webp/anim-compose.webp")
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.format == .webp)
        #expect(provider.frameCount == 4)
        #expect(provider.loopCount == 2)
        #expect(provider.hasAlpha)
        #expect(provider.frameSize == PixelSize(width: 64, height: 48))
        #expect(provider.animatedImageData == data)
        #expect((0..<4).map { provider.duration(ofFrameAt: $0) } == [0.1, 0.1, 0.1, 0.1])
        #expect(provider.duration(ofFrameAt: 4) == 0)
        #expect(provider.duration(ofFrameAt: -1) == 0)

        for index in [0, 1, 2, 3, 3, 1, 2, 0, 3] {
            let frame = try provider.frame(at: index)
            #expect(frame == full.frames[index].pixels, "frame \(index)")
            expectPixels(frame, Self.composeExpectations[index])
        }
        let error = #expect(throws: WebImageError.self) { try provider.frame(at: 4) }
        #expect(error?.code == .badImageData)
    }

    @Test("provides frames from many threads at once")
    func providerConcurrency() throws {
        let data = Fixtures.data("webp/anim-img2webp.webp")
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        let mismatches = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let index = (i * 7) % 4
            guard let frame = try? provider.frame(at: index), frame == full.frames[index].pixels else {
                mismatches.add(1, ordering: .relaxed)
                return
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test("provides scaled frames and respects the limits")
    func providerOptions() throws {
        let data = Fixtures.data("webp/anim-compose.webp")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 32)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: options)
        #expect(provider.frameSize == PixelSize(width: 32, height: 24))
        #expect(try provider.frame(at: 3).size == PixelSize(width: 32, height: 24))

        // A provider holds one frame at a time: four frames over the limit are fine, the canvas is not.
        options.thumbnailPixelSize = nil
        options.maxPixelCount = 64 * 48
        #expect(try coder.makeAnimatedImageProvider(for: data, options: options).frameCount == 4)
        options.maxPixelCount = 64 * 48 - 1
        let error = #expect(throws: WebImageError.self) {
            try coder.makeAnimatedImageProvider(for: data, options: options)
        }
        #expect(error?.code == .imageTooLarge)

        // A still image is a provider of one frame.
        let still = try coder.makeAnimatedImageProvider(for: Fixtures.data("webp/quad-lossless.webp"), options: ImageDecodeOptions())
        #expect(still.frameCount == 1)
        expectPixels(try still.frame(at: 0), quadrants(still.frameSize, WebPCoderTests.quad(.white)))
    }

    @Test("a still image's frame source gives what the decode gives, on damaged data too")
    func stillProviderAgreesWithDecode() throws {
        // The RIFF and image chunk sizes understate the data by 40 bytes: libwebp's one-shot decoder reads its
        // bitstream on to the end of the data, where the image's chunk alone comes up short.
        let data = Fixtures.data("webp/quad-lossy.webp")
        let damaged = WebPIncrementalTests.adjustingUInt32(
            at: 16, by: -40, in: WebPIncrementalTests.adjustingUInt32(at: 4, by: -40, in: data)
        )
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 20)
        for options in [ImageDecodeOptions(), thumbnail] {
            let decoded = try coder.decode(damaged, options: options)
            let provider = try coder.makeAnimatedImageProvider(for: damaged, options: options)
            #expect(provider.frameCount == 1)
            #expect(provider.frameSize == decoded.pixelSize)
            #expect(provider.hasAlpha == decoded.hasAlpha)
            #expect(try provider.frame(at: 0) == decoded.pixels)
            #expect(provider.duration(ofFrameAt: 0) == 0)
        }
    }
}
