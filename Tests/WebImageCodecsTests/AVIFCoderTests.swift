#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Still images: detection, headers, decoding at each bit depth, orientation, thumbnails, limits.
@Suite("AVIF still images")
struct AVIFCoderTests {
    let coder = AVIFCoder()

    /// The quadrant image's colours: red, green, blue, then the bottom-right colour.
    static func quad(_ bottomRight: RGBAColor) -> [RGBAColor] {
        [.red, .green, .blue, bottomRight]
    }

    @Test("recognises AVIF data and encodes only AVIF")
    func detection() {
        #expect(coder.canDecode(Fixtures.data("avif/quad.avif")))
        #expect(coder.canDecode(Fixtures.data("avif/anim.avif")))
        #expect(!coder.canDecode(Fixtures.data("source/quad.png")))
        #expect(!coder.canDecode(Fixtures.data("webp/quad-lossy.webp")))
        #expect(!coder.canDecode(Data()))
        #expect(coder.canEncode(to: .avif))
        #expect(!coder.canEncode(to: .webp))
        #expect(!coder.canEncode(to: .png))
    }

    @Test("the default registry decodes AVIF with this coder")
    func registry() throws {
        let data = Fixtures.data("avif/quad.avif")
        #expect(ImageCoderRegistry.shared.decoder(for: data) is AVIFCoder)
        #expect(ImageCoderRegistry.shared.canEncode(to: .avif))
        let image = try ImageCoderRegistry.shared.decode(data)
        #expect(image.format == .avif)
    }

    @Test("decodes an 8-bit opaque image")
    func opaque() throws {
        let image = try coder.decode(Fixtures.data("avif/quad.avif"))
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.format == .avif)
        #expect(!image.hasAlpha)
        #expect(!image.isAnimated)
        #expect(image.orientation == .up)
        #expect(image.pixels.isOpaque)
        expectPixels(image.pixels, quadrants(image.pixelSize, Self.quad(.white)), tolerance: 12)
    }

    @Test("decodes an image with alpha, its alpha exact")
    func alpha() throws {
        let image = try coder.decode(Fixtures.data("avif/quad-alpha.avif"))
        #expect(image.hasAlpha)
        expectPixels(image.pixels, quadrants(image.pixelSize, Self.quad(.clear)), tolerance: 12)
        #expect(image.pixels[x: 48, y: 36].alpha == 0)
        #expect(image.pixels[x: 16, y: 12].alpha == 255)
    }

    @Test("decodes 10- and 12-bit images to 8 bits like their 8-bit twin", arguments: ["quad-10bit", "quad-12bit"])
    func highBitDepth(_ name: String) throws {
        let deep = try coder.decode(Fixtures.data("avif/\(name).avif"))
        let eight = try coder.decode(Fixtures.data("avif/quad.avif"))
        #expect(deep.pixelSize == eight.pixelSize)
        #expect(!deep.hasAlpha)
        #expect(deep.pixels.isOpaque)
        expectPixels(deep.pixels, quadrants(deep.pixelSize, Self.quad(.white)), tolerance: 12)
        // Scaled to 8 bits, not truncated: a wrong shift would leave the colours far apart.
        #expect(WebPPixelStatistics.meanDifference(deep.pixels, eight.pixels) < 3)
    }

    @Test("reads the container without decoding")
    func info() throws {
        let opaque = try coder.info(for: Fixtures.data("avif/quad.avif"))
        #expect(opaque.format == .avif)
        #expect(opaque.pixelSize == PixelSize(width: 64, height: 48))
        #expect(!opaque.hasAlpha)
        #expect(opaque.frameCount == 1)
        #expect(opaque.orientation == .up)

        #expect(try coder.info(for: Fixtures.data("avif/quad-alpha.avif")).hasAlpha)
        #expect(try coder.info(for: Fixtures.data("avif/photo.avif")).pixelSize == PixelSize(width: 320, height: 240))

        let sequence = try coder.info(for: Fixtures.data("avif/anim.avif"))
        #expect(sequence.pixelSize == PixelSize(width: 32, height: 24))
        #expect(sequence.frameCount == 4)
        #expect(sequence.loopCount == 0)
    }

    @Test("irot and imir read as EXIF orientations")
    func orientationInfo() throws {
        let rotated = try coder.info(for: Fixtures.data("avif/quad-irot1.avif"))
        #expect(rotated.orientation == .left)
        #expect(rotated.pixelSize == PixelSize(width: 64, height: 48))
        #expect(rotated.uprightSize == PixelSize(width: 48, height: 64))
        #expect(try coder.info(for: Fixtures.data("avif/quad-imir1.avif")).orientation == .upMirrored)
    }

    @Test("the transforms map to the orientations that turn the pixels alike")
    func orientationMapping() throws {
        // Each orientation is checked against its pixels: the stored quadrants turned by irot, then imir.
        let stored = try coder.decode(Fixtures.data("avif/quad.avif"), options: ImageDecodeOptions(keepsOriginalOrientation: true))
        let rotated = try coder.decode(Fixtures.data("avif/quad-irot1.avif"))
        #expect(rotated.orientation == .up)
        #expect(rotated.pixelSize == PixelSize(width: 48, height: 64))
        // A quarter turn anticlockwise: top-right green comes to the top left, bottom-right white to the top
        // right, top-left red to the bottom left, bottom-left blue to the bottom right.
        expectPixels(rotated.pixels, quadrants(rotated.pixelSize, [.green, .white, .red, .blue]), tolerance: 12)

        let mirrored = try coder.decode(Fixtures.data("avif/quad-imir1.avif"))
        #expect(mirrored.pixelSize == PixelSize(width: 64, height: 48))
        expectPixels(mirrored.pixels, quadrants(mirrored.pixelSize, [.green, .red, .white, .blue]), tolerance: 12)
        #expect(stored.orientation == .up)
    }

    @Test("keeps the stored pixels when asked, and reports the orientation")
    func keepsOrientation() throws {
        var options = ImageDecodeOptions()
        options.keepsOriginalOrientation = true
        let image = try coder.decode(Fixtures.data("avif/quad-irot1.avif"), options: options)
        #expect(image.orientation == .left)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        expectPixels(image.pixels, quadrants(image.pixelSize, Self.quad(.white)), tolerance: 12)
    }

    @Test("thumbnails are the full decode resampled, turned upright")
    func thumbnail() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 32)
        let quad = try coder.decode(Fixtures.data("avif/quad.avif"), options: options)
        #expect(quad.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(quad.pixels, quadrants(quad.pixelSize, Self.quad(.white)), tolerance: 16)

        let rotated = try coder.decode(Fixtures.data("avif/quad-irot1.avif"), options: options)
        #expect(rotated.pixelSize == PixelSize(width: 24, height: 32))
        expectPixels(rotated.pixels, quadrants(rotated.pixelSize, [.green, .white, .red, .blue]), tolerance: 16)

        options.thumbnailPixelSize = PixelSize(square: 80)
        let photo = try coder.decode(Fixtures.data("avif/photo.avif"), options: options)
        #expect(photo.pixelSize == PixelSize(width: 80, height: 60))
        let full = try coder.decode(Fixtures.data("avif/photo.avif"))
        let reduced = try full.pixels.resampled(to: photo.pixelSize, hasAlpha: false)
        #expect(WebPPixelStatistics.meanDifference(photo.pixels, reduced) < 2)
    }

    @Test("the pixel limit applies to the full-size frame, before decoding")
    func pixelLimit() throws {
        let data = Fixtures.data("avif/photo.avif")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 320 * 240 - 1
        let error = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)
        // libavif decodes at full size only: a thumbnail does not get around the limit.
        options.thumbnailPixelSize = PixelSize(square: 32)
        let reduced = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(reduced?.code == .imageTooLarge)
        options.maxPixelCount = 320 * 240
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test("the decode memory budget is checked on every entry point")
    func memoryBudget() throws {
        for file in ["avif/photo.avif", "avif/anim.avif"] {
            let data = Fixtures.data(file)
            MemoryBudgetChecks.expectOverBudget(file) { _ = try coder.decode(data, options: MemoryBudgetChecks.tiny) }
            var thumbnail = MemoryBudgetChecks.tiny
            thumbnail.thumbnailPixelSize = PixelSize(square: 8)
            MemoryBudgetChecks.expectOverBudget("\(file), thumbnail") { _ = try coder.decode(data, options: thumbnail) }
            MemoryBudgetChecks.expectOverBudget("\(file), frame source") {
                _ = try coder.makeAnimatedImageProvider(for: data, options: MemoryBudgetChecks.tiny)
            }
            thumbnail.maxDecodeMemory = ImageDecodeOptions.defaultMaxDecodeMemory
            _ = try coder.decode(data, options: thumbnail)
            let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
            _ = try provider.frame(at: provider.frameCount - 1)
        }
    }
}
