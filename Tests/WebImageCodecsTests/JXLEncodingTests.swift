#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Encoding: lossless round trips, quality as distance, effort, animations.
@Suite("JPEG XL encoding")
struct JXLEncodingTests {
    let coder = JXLCoder()

    @Test("quality 1 and lossless give back every byte")
    func lossless() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/quad-semi.png"))
        for options in [ImageEncodeOptions(quality: 1), ImageEncodeOptions(quality: 0.5, lossless: true)] {
            let data = try coder.encode(source, as: .jpegxl, options: options)
            #expect(ImageFormat.detect(data) == .jpegxl)
            let decoded = try coder.decode(data)
            #expect(decoded.hasAlpha)
            #expect(decoded.pixels == source.pixels)
        }
    }

    @Test("lower quality gives smaller files that still look like the source")
    func quality() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/photo.png"))
        var sizes: [Int] = []
        for quality in [0.95, 0.8, 0.4] {
            let data = try coder.encode(source, as: .jpegxl, options: ImageEncodeOptions(quality: quality))
            sizes.append(data.count)
            let decoded = try coder.decode(data)
            #expect(decoded.pixelSize == source.pixelSize)
            #expect(!decoded.hasAlpha)
            #expect(JXLTestMath.meanDifference(decoded.pixels, source.pixels) < 12, "quality \(quality)")
        }
        #expect(sizes[0] > sizes[1] && sizes[1] > sizes[2], "\(sizes)")
    }

    @Test("the effort key changes the encoder's work")
    func effort() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/photo.png"))
        var fast = ImageEncodeOptions(quality: 0.8)
        fast.custom[JXLCoder.effortKey] = .int(1)
        var slow = fast
        slow.custom[JXLCoder.effortKey] = .int(7)
        let fastData = try coder.encode(source, as: .jpegxl, options: fast)
        let slowData = try coder.encode(source, as: .jpegxl, options: slow)
        #expect(fastData != slowData)
        #expect(try coder.decode(fastData).pixelSize == source.pixelSize)
        #expect(try coder.decode(slowData).pixelSize == source.pixelSize)
    }

    @Test("animations keep their frames, durations and loop count")
    func animation() throws {
        let source = try GIFCoder().decode(Fixtures.data("gif/anim-loop3.gif"))
        let data = try coder.encode(source, as: .jpegxl, options: ImageEncodeOptions(quality: 1))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == source.frames.count)
        #expect(decoded.loopCount == source.loopCount)
        for (index, (frame, expected)) in zip(decoded.frames, source.frames).enumerated() {
            #expect(frame.pixels == expected.pixels, "frame \(index)")
            #expect(abs(frame.duration - expected.duration) < 0.001, "frame \(index)")
        }
        let first = try coder.encode(source, as: .jpegxl, options: ImageEncodeOptions(quality: 1, firstFrameOnly: true))
        #expect(try coder.info(for: first).frameCount == 1)
    }

    @Test("maxPixelSize scales down; other formats are refused")
    func sizeAndFormat() throws {
        let source = try PNGCoder().decode(Fixtures.data("source/photo.png"))
        let data = try coder.encode(source, as: .jpegxl, options: ImageEncodeOptions(quality: 0.8, maxPixelSize: PixelSize(square: 100)))
        #expect(try coder.info(for: data).pixelSize == PixelSize(width: 100, height: 75))
        let error = #expect(throws: WebImageError.self) { try coder.encode(source, as: .png, options: ImageEncodeOptions()) }
        #expect(error?.code == .unsupportedFormat)
        let viaRegistry = try ImageCoderRegistry.shared.encode(source, as: .jpegxl, options: ImageEncodeOptions(quality: 0.8))
        #expect(ImageFormat.detect(viaRegistry) == .jpegxl)
    }
}
