#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: APNG encoding")
struct APNGEncodingTests {
    let coder = PNGCoder()

    @Test("decoded animations survive encode and decode: frames, durations, loop count", arguments: [
        "apng-dispose.png", "apng-blend.png", "apng-palette.png", "apng-hidden-default.png", "apng-apngasm.png",
        "apng-first-previous.png",
    ])
    func roundTrip(_ file: String) throws {
        let original = try coder.decode(Fixtures.data("png/\(file)"))
        let encoded = try coder.encode(original, as: .png, options: ImageEncodeOptions())
        let info = try coder.info(for: encoded)
        #expect(info.frameCount == original.frames.count)
        #expect(info.loopCount == original.loopCount)
        let decoded = try coder.decode(encoded)
        #expect(decoded.frames.count == original.frames.count)
        #expect(decoded.loopCount == original.loopCount)
        #expect(decoded.hasAlpha == original.hasAlpha)
        #expect(decoded.frames.map(\.duration) == original.frames.map(\.duration))
        for (index, (a, b)) in zip(decoded.frames, original.frames).enumerated() {
            #expect(a.pixels == b.pixels, "\(file) frame \(index)")
        }
        // The first frame is the default image, so readers without APNG support show it.
        let still = try coder.decode(encoded, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(still.pixels == original.frames[0].pixels)
    }

    @Test("an animation made in memory: opaque frames as RGB, long and short durations")
    func inMemory() throws {
        let colors: [RGBAColor] = [.red, .green, .blue]
        let durations = [0.5, 70.0, 0.02]
        let frames = try zip(colors, durations).map { color, duration in
            ImageFrame(pixels: try PixelBuffer(width: 6, height: 4, color: color), duration: duration)
        }
        let image = Image(frames: frames, loopCount: 5, hasAlpha: false)
        let encoded = try coder.encode(image, as: .png, options: ImageEncodeOptions())
        #expect(encoded[encoded.startIndex + 25] == 2)      // RGB
        let decoded = try coder.decode(encoded)
        #expect(decoded.frames.count == 3)
        #expect(decoded.loopCount == 5)
        #expect(!decoded.hasAlpha)
        #expect(decoded.frames.map(\.duration) == durations)
        for (frame, color) in zip(decoded.frames, colors) {
            #expect(frame.pixels[x: 5, y: 3] == color)
        }
    }

    @Test("maxPixelSize scales every frame")
    func scaled() throws {
        let original = try coder.decode(Fixtures.data("png/apng-dispose.png"))
        let encoded = try coder.encode(original, as: .png, options: ImageEncodeOptions(maxPixelSize: PixelSize(square: 16)))
        let decoded = try coder.decode(encoded)
        #expect(decoded.frames.count == 4)
        #expect(decoded.pixelSize == PixelSize(width: 16, height: 12))
        #expect(decoded.frames[3].pixels == (try original.frames[3].pixels.resampled(to: PixelSize(width: 16, height: 12))))
    }

    @Test("frames that share a buffer are encoded once and decode alike")
    func sharedFrames() throws {
        let pixels = try PixelBuffer(width: 3, height: 3, color: .white)
        let image = Image(frames: [
            ImageFrame(pixels: pixels, duration: 0.2), ImageFrame(pixels: pixels, duration: 0.3),
        ], hasAlpha: true)
        let decoded = try coder.decode(coder.encode(image, as: .png, options: ImageEncodeOptions()))
        #expect(decoded.frames.count == 2)
        #expect(decoded.frames[0].pixels == decoded.frames[1].pixels)
        #expect(decoded.frames.map(\.duration) == [0.2, 0.3])
    }
}
