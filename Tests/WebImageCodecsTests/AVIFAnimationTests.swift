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

/// Image sequences (avis): every frame at once, the first only, and frames on demand.
@Suite("AVIF animations")
struct AVIFAnimationTests {
    let coder = AVIFCoder()
    let data = Fixtures.data("avif/anim.avif")
    static let colors: [RGBAColor] = [.red, .green, .blue, .white]

    /// Expects `pixels` to be one colour, sampled at its centre and a corner.
    static func expectSolid(_ pixels: PixelBuffer, _ color: RGBAColor, sourceLocation: SourceLocation = #_sourceLocation) {
        let centre = ExpectedPixel(x: pixels.width / 2, y: pixels.height / 2, color)
        let corner = ExpectedPixel(x: 0, y: 0, color)
        expectPixels(pixels, [centre, corner], tolerance: 12, sourceLocation: sourceLocation)
    }

    @Test("decodes every frame with its duration; the loop count is forever")
    func frames() throws {
        let image = try coder.decode(data)
        #expect(image.frames.count == 4)
        #expect(image.isAnimated)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(image.loopCount == 0)
        // avifenc 0.11 writes an alpha track for a sequence even from opaque frames.
        #expect(image.hasAlpha == (try coder.info(for: data).hasAlpha))
        #expect(image.frames.allSatisfy { $0.pixels.isOpaque })
        #expect(image.frames.map(\.duration) == [0.08, 0.04, 0.12, 0.2])
        for (frame, color) in zip(image.frames, Self.colors) {
            Self.expectSolid(frame.pixels, color)
        }
    }

    @Test("decodes the first frame only when asked")
    func firstFrameOnly() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let image = try coder.decode(data, options: options)
        #expect(image.frames.count == 1)
        #expect(!image.isAnimated)
        Self.expectSolid(image.pixels, .red)
    }

    @Test("reduces every frame for a thumbnail")
    func thumbnail() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 16)
        let image = try coder.decode(data, options: options)
        #expect(image.frames.count == 4)
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        for (frame, color) in zip(image.frames, Self.colors) {
            Self.expectSolid(frame.pixels, color)
        }
    }

    @Test("checks the frame and pixel limits before decoding")
    func limits() throws {
        var options = ImageDecodeOptions()
        options.maxFrameCount = 3
        let frames = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(frames?.code == .imageTooLarge)
        let providerFrames = #expect(throws: WebImageError.self) {
            try coder.makeAnimatedImageProvider(for: data, options: options)
        }
        #expect(providerFrames?.code == .imageTooLarge)
        options.firstFrameOnly = true
        #expect(try coder.decode(data, options: options).frames.count == 1)

        options = ImageDecodeOptions()
        options.maxPixelCount = 32 * 24 * 3              // one frame fits, four do not
        let pixels = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(pixels?.code == .imageTooLarge)
        // A provider holds one frame at a time.
        #expect(try coder.makeAnimatedImageProvider(for: data, options: options).frameCount == 4)
    }

    @Test("provides the same frames as a full decode, in order and going back")
    func provider() throws {
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.format == .avif)
        #expect(provider.frameCount == 4)
        #expect(provider.loopCount == 0)
        #expect(provider.hasAlpha == full.hasAlpha)
        #expect(provider.frameSize == PixelSize(width: 32, height: 24))
        #expect(provider.animatedImageData == data)
        #expect((0..<4).map { provider.duration(ofFrameAt: $0) } == [0.08, 0.04, 0.12, 0.2])
        #expect(provider.duration(ofFrameAt: 4) == 0)
        for index in [0, 1, 2, 3, 3, 1, 2, 0, 3] {
            #expect(try provider.frame(at: index) == full.frames[index].pixels, "frame \(index)")
        }
        let error = #expect(throws: WebImageError.self) { try provider.frame(at: 4) }
        #expect(error?.code == .badImageData)
    }

    @Test("provides frames from many threads at once")
    func providerConcurrency() throws {
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        let mismatches = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let index = (i * 7) % 4
            guard let frame = try? provider.frame(at: index), frame == full.frames[index].pixels else {
                mismatches.add(1, ordering: .relaxed)
                return
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }

    @Test("provides reduced frames, one frame for firstFrameOnly, and a still image as one frame")
    func providerOptions() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 16)
        let reduced = try coder.makeAnimatedImageProvider(for: data, options: options)
        #expect(reduced.frameSize == PixelSize(width: 16, height: 12))
        Self.expectSolid(try reduced.frame(at: 2), .blue)

        let first = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frameCount == 1)
        Self.expectSolid(try first.frame(at: 0), .red)

        let still = try coder.makeAnimatedImageProvider(for: Fixtures.data("avif/quad-irot1.avif"), options: ImageDecodeOptions())
        #expect(still.frameCount == 1)
        #expect(still.frameSize == PixelSize(width: 48, height: 64))
    }

    @Test("loads as an animation with frames on demand through the registry")
    func framesOnDemand() throws {
        var options = ImageDecodeOptions()
        options.framesOnDemand = true
        let image = try ImageCoderRegistry.shared.decodeForLoad(data, options: options)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 4)
        #expect(image.frameCount == 4)
        Self.expectSolid(image.pixels, .red)
    }
}
