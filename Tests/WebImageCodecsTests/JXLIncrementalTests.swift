#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Progressive decoding of data that arrives in pieces.
@Suite("JPEG XL incremental decoding")
struct JXLIncrementalTests {
    let coder = JXLCoder()

    /// Feeds `data` in prefixes of `step` bytes and returns the images after each step.
    static func feed(_ data: Data, step: Int, to decoder: any IncrementalImageDecoding) -> [Image?] {
        var images: [Image?] = []
        var end = 0
        while end < data.count {
            end = min(data.count, end + step)
            decoder.update(data.prefix(end), isFinished: end == data.count)
            images.append(decoder.currentImage())
        }
        return images
    }

    @Test("recognises the start of a JPEG XL download")
    func canDecodeIncrementally() {
        let data = Fixtures.data("jxl/photo-progressive.jxl")
        #expect(coder.canDecodeIncrementally(data.prefix(12)))
        #expect(!coder.canDecodeIncrementally(Fixtures.data("webp/photo.webp")))
    }

    @Test("a progressive file shows partial images, then the one-shot decode", arguments: ["photo-progressive", "photo"])
    func partials(_ name: String) throws {
        let data = Fixtures.data("jxl/\(name).jxl")
        let whole = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(data, step: 512, to: decoder)
        let partials = images.dropLast().compactMap { $0 }
        if name == "photo-progressive" {
            #expect(!partials.isEmpty, "no partial image")
            // The low-resolution pass already covers the whole image, opaque.
            let first = try #require(partials.first)
            #expect(first.pixels.isOpaque)
            #expect(JXLTestMath.meanDifference(first.pixels, whole.pixels) < 40)
        }
        for partial in partials {
            #expect(partial.isIncremental)
            #expect(partial.pixelSize == whole.pixelSize)
            #expect(partial.format == .jpegxl)
        }
        let final = try #require(images.last ?? nil)
        #expect(!final.isIncremental)
        #expect(final.pixels == whole.pixels)
    }

    @Test("partial images have the thumbnail size")
    func thumbnail() throws {
        let data = Fixtures.data("jxl/photo-progressive.jxl")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 64)
        let decoder = coder.makeIncrementalDecoder(options: options)
        let images = Self.feed(data, step: 1024, to: decoder)
        let expected = try coder.decode(data, options: options)
        for image in images.compactMap({ $0 }) {
            #expect(image.pixelSize == expected.pixelSize)
        }
        #expect((images.last ?? nil)?.pixels == expected.pixels)
    }

    @Test("data cut short keeps the last partial image; garbage gives none")
    func cutShortAndGarbage() throws {
        let data = Fixtures.data("jxl/photo-progressive.jxl")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count * 3 / 4), isFinished: false)
        let partial = decoder.currentImage()
        decoder.update(data.prefix(data.count * 3 / 4), isFinished: true)
        let final = decoder.currentImage()
        #expect(final?.isIncremental == true || (partial == nil && final == nil))

        let garbage = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        var bad = data
        bad.replaceSubrange(2..<data.count, with: CorruptData.randomBytes(count: data.count - 2, seed: 9))
        _ = Self.feed(bad, step: 700, to: garbage)
        #expect(garbage.currentImage() == nil)
    }

    @Test("animations are decoded whole at the end")
    func animation() throws {
        let data = Fixtures.data("jxl/anim.jxl")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count - 1), isFinished: false)
        #expect(decoder.currentImage() == nil)
        decoder.update(data, isFinished: true)
        let image = try #require(decoder.currentImage())
        #expect(image.frames.count == (try coder.decode(data)).frames.count)
    }
}

/// Pixel arithmetic for the suites above.
enum JXLTestMath {
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                total += a[x: x, y: y].distance(to: b[x: x, y: y])
            }
        }
        return Double(total) / Double(a.width * a.height)
    }
}
