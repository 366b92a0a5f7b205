#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Still images: decoding, headers, orientation, bit depth, thumbnails, limits.
@Suite("JPEG XL still images")
struct JXLCoderTests {
    let coder = JXLCoder()

    static func quad(_ bottomRight: RGBAColor) -> [RGBAColor] {
        [.red, .green, .blue, bottomRight]
    }

    @Test("recognises JPEG XL data and encodes only JPEG XL")
    func detection() {
        #expect(coder.canDecode(Fixtures.data("jxl/quad-lossy.jxl")))
        #expect(coder.canDecode(Fixtures.data("jxl/quad-orient6.jxl")))
        #expect(!coder.canDecode(Fixtures.data("source/quad.png")))
        #expect(!coder.canDecode(Fixtures.data("webp/quad-lossy.webp")))
        #expect(!coder.canDecode(Data()))
        #expect(coder.canEncode(to: .jpegxl))
        #expect(!coder.canEncode(to: .png))
        #expect(ImageFormat.detect(Fixtures.data("jxl/quad-lossless.jxl")) == .jpegxl)
    }

    @Test("the default registry decodes JPEG XL")
    func registry() throws {
        let image = try ImageCoderRegistry.shared.decode(Fixtures.data("jxl/quad-lossless.jxl"), options: ImageDecodeOptions())
        #expect(image.format == .jpegxl)
        #expect(ImageCoderRegistry.shared.canEncode(to: .jpegxl))
    }

    @Test("decodes lossy and lossless opaque images")
    func opaque() throws {
        for (name, tolerance) in [("quad-lossy", 12), ("quad-lossless", 0), ("quad16-lossless", 0)] {
            let image = try coder.decode(Fixtures.data("jxl/\(name).jxl"))
            #expect(image.pixelSize == PixelSize(width: 64, height: 48), "\(name)")
            #expect(image.format == .jpegxl)
            #expect(!image.hasAlpha, "\(name)")
            #expect(!image.isAnimated)
            #expect(!image.isIncremental)
            #expect(image.pixels.isOpaque, "\(name)")
            expectPixels(image.pixels, quadrants(image.pixelSize, Self.quad(.white)), tolerance: tolerance)
        }
    }

    @Test("a 16-bit source comes out as its 8-bit equal")
    func sixteenBits() throws {
        let eight = try coder.decode(Fixtures.data("jxl/quad-lossless.jxl"))
        let sixteen = try coder.decode(Fixtures.data("jxl/quad16-lossless.jxl"))
        #expect(try coder.info(for: Fixtures.data("jxl/quad16-lossless.jxl")).pixelSize == sixteen.pixelSize)
        #expect(sixteen.pixels == eight.pixels)
    }

    @Test("decodes alpha")
    func alpha() throws {
        let transparent = try coder.decode(Fixtures.data("jxl/quad-alpha-lossless.jxl"))
        #expect(transparent.hasAlpha)
        expectPixels(transparent.pixels, quadrants(transparent.pixelSize, Self.quad(.clear)), tolerance: 0)

        let semi = try coder.decode(Fixtures.data("jxl/quad-semi-lossy.jxl"))
        #expect(semi.hasAlpha)
        let corner = semi.pixels[x: 48, y: 36]
        #expect(abs(Int(corner.alpha) - 127) <= 3, "\(corner)")
        #expect(corner.red > 200 && corner.green < 40 && corner.blue < 40, "\(corner)")
        #expect(semi.pixels[x: 16, y: 12].alpha == 255)
    }

    @Test("reads the headers without decoding")
    func info() throws {
        let lossy = try coder.info(for: Fixtures.data("jxl/quad-lossy.jxl"))
        #expect(lossy.format == .jpegxl)
        #expect(lossy.pixelSize == PixelSize(width: 64, height: 48))
        #expect(lossy.frameCount == 1 && !lossy.hasAlpha && lossy.orientation == .up)
        #expect(try coder.info(for: Fixtures.data("jxl/quad-alpha-lossless.jxl")).hasAlpha)

        let oriented = try coder.info(for: Fixtures.data("jxl/quad-orient6.jxl"))
        #expect(oriented.pixelSize == PixelSize(width: 64, height: 48))
        #expect(oriented.orientation == ImageOrientation(exifValue: 6))
        #expect(oriented.uprightSize == PixelSize(width: 48, height: 64))

        // A prefix is enough for a still image; the answer equals the whole file's.
        let photo = Fixtures.data("jxl/photo.jxl")
        var prefix = photo.prefix(8)
        var answer = try coder.info(forPrefix: prefix, totalByteCount: photo.count)
        while case .needsMoreBytes(let count) = answer {
            #expect(count > prefix.count && count <= photo.count)
            prefix = photo.prefix(count)
            answer = try coder.info(forPrefix: prefix, totalByteCount: photo.count)
        }
        #expect(prefix.count < photo.count)
        #expect(answer == .complete(try coder.info(for: photo)))
    }

    @Test("applies the orientation, or keeps it when asked")
    func orientation() throws {
        let data = Fixtures.data("jxl/quad-orient6.jxl")
        let upright = try coder.decode(data)
        #expect(upright.pixelSize == PixelSize(width: 48, height: 64))
        #expect(upright.orientation == .up)
        // Orientation 6 turns the stored image 90 degrees clockwise: stored bottom-left (blue) goes top-left.
        expectPixels(upright.pixels, quadrants(upright.pixelSize, [.blue, .red, .white, .green]), tolerance: 16)

        var options = ImageDecodeOptions()
        options.keepsOriginalOrientation = true
        let stored = try coder.decode(data, options: options)
        #expect(stored.pixelSize == PixelSize(width: 64, height: 48))
        #expect(stored.orientation == ImageOrientation(exifValue: 6))
        expectPixels(stored.pixels, quadrants(stored.pixelSize, Self.quad(.white)), tolerance: 16)

        options.thumbnailPixelSize = PixelSize(width: 24, height: 32)
        let thumbnail = try coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test("thumbnails are the full decode resampled")
    func thumbnail() throws {
        let data = Fixtures.data("jxl/photo.jxl")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 80)
        let small = try coder.decode(data, options: options)
        #expect(small.pixelSize == PixelSize(width: 80, height: 60))
        let reference = try coder.decode(data).pixels.resampled(to: small.pixelSize, hasAlpha: false)
        #expect(small.pixels == reference)
    }

    @Test("the pixel limit and the decode memory budget refuse before decoding")
    func limits() throws {
        let data = Fixtures.data("jxl/photo.jxl")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 320 * 240 - 1
        let error = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
        // A thumbnail still needs libjxl's full-size decode, which is over the limit.
        options.thumbnailPixelSize = PixelSize(square: 32)
        #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        options.maxPixelCount = 320 * 240
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 32, height: 24))

        try MemoryBudgetChecks.expectEveryEntryPointChecks("jxl/photo.jxl", animated: false)
        try MemoryBudgetChecks.expectEveryEntryPointChecks("jxl/anim.jxl", animated: true)
        // libjxl's float planes alone, 12 bytes a pixel, are over a budget of 10 bytes a pixel.
        var budget = ImageDecodeOptions()
        budget.maxDecodeMemory = 320 * 240 * 10
        let over = #expect(throws: WebImageError.self) { try coder.decode(data, options: budget) }
        #expect(over?.code == .imageTooLarge)
        budget.maxDecodeMemory = 320 * 240 * 17
        #expect(try coder.decode(data, options: budget).pixelSize == PixelSize(width: 320, height: 240))
    }
}
