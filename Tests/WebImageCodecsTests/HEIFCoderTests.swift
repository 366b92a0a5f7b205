#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// HEIF and HEIC still images: detection, headers, decoding, thumbnails, limits.
@Suite("HEIF still images")
struct HEIFCoderTests {
    let coder = HEIFCoder()

    static let quadSize = PixelSize(width: 64, height: 48)
    static let photoSize = PixelSize(width: 320, height: 240)

    /// An `ftyp` box of `major` with `compatible` brands, then nothing.
    static func ftyp(_ major: String, _ compatible: [String] = []) -> Data {
        let brands = [major, "\u{0}\u{0}\u{0}\u{0}"] + compatible
        let payload = Data("ftyp".utf8) + brands.reduce(Data()) { $0 + Data($1.utf8) }
        let size = UInt32(payload.count + 4)
        return Data([UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]) + payload
    }

    @Test("claims HEIC and HEIF by their brands, never AVIF")
    func detection() {
        for name in ["quad", "quad-alpha", "quad-10bit", "quad-rotated", "photo", "photo-thumb", "two-images"] {
            #expect(coder.canDecode(Fixtures.data("heif/\(name).heic")), "\(name)")
        }
        #expect(coder.canDecode(Self.ftyp("heic")))
        #expect(coder.canDecode(Self.ftyp("mif1", ["heic"])))
        #expect(coder.canDecode(Self.ftyp("mif1")))
        #expect(coder.canDecode(Self.ftyp("msf1", ["hevc"])))
        // AVIF carries mif1 too: it belongs to the AVIF coder, although libheif would read it.
        #expect(!coder.canDecode(Self.ftyp("avif", ["mif1", "miaf"])))
        #expect(!coder.canDecode(Self.ftyp("mif1", ["avif"])))
        #expect(!coder.canDecode(Fixtures.data("source/quad.png")))
        #expect(!coder.canDecode(Data()))
        #expect(!coder.canEncode(to: .heif))
        #expect(!coder.canEncode(to: .avif))
        #expect(!coder.canEncode(to: .png))
    }

    @Test("reads the header without decoding")
    func info() throws {
        let quad = try coder.info(for: Fixtures.data("heif/quad.heic"))
        #expect(quad.format == .heic)
        #expect(quad.pixelSize == Self.quadSize)
        #expect(!quad.hasAlpha)
        #expect(quad.frameCount == 1)
        #expect(quad.orientation == .up)
        #expect(try coder.info(for: Fixtures.data("heif/quad-alpha.heic")).hasAlpha)
        #expect(try coder.info(for: Fixtures.data("heif/photo.heic")).pixelSize == Self.photoSize)
        // The embedded thumbnail is not a top-level image.
        #expect(try coder.info(for: Fixtures.data("heif/photo-thumb.heic")).frameCount == 1)
        let two = try coder.info(for: Fixtures.data("heif/two-images.heic"))
        #expect(two.frameCount == 2)
        #expect(!two.hasAlpha, "the primary image is the opaque one")
    }

    @Test("decodes an opaque 8-bit image")
    func opaque() throws {
        let image = try coder.decode(Fixtures.data("heif/quad.heic"))
        #expect(image.pixelSize == Self.quadSize)
        #expect(image.format == .heic)
        #expect(!image.hasAlpha)
        #expect(!image.isAnimated)
        #expect(image.orientation == .up)
        #expect(image.pixels.isOpaque)
        expectPixels(image.pixels, quadrants(image.pixelSize, [.red, .green, .blue, .white]), tolerance: 12)
    }

    @Test("applies the file's rotation and reports the upright size, whatever the orientation option")
    func rotation() throws {
        let data = Fixtures.data("heif/quad-rotated.heic")
        let info = try coder.info(for: data)
        #expect(info.pixelSize == PixelSize(width: 48, height: 64))
        #expect(info.orientation == .up)
        for keep in [false, true] {
            var options = ImageDecodeOptions()
            options.keepsOriginalOrientation = keep
            let image = try coder.decode(data, options: options)
            #expect(image.pixelSize == PixelSize(width: 48, height: 64), "keep \(keep)")
            #expect(image.orientation == .up)
            // quad.png turned 90 degrees anticlockwise.
            expectPixels(image.pixels, quadrants(image.pixelSize, [.green, .white, .red, .blue]), tolerance: 12)
        }
    }

    @Test("decodes the alpha plane")
    func alpha() throws {
        let image = try coder.decode(Fixtures.data("heif/quad-alpha.heic"))
        #expect(image.hasAlpha)
        #expect(!image.pixels.isOpaque)
        expectPixels(image.pixels, quadrants(image.pixelSize, [.red, .green, .blue, .clear]), tolerance: 12)
        #expect(image.pixels[x: 16, y: 12].alpha >= 250)
    }

    @Test("reduces a 10-bit image to 8 bits a channel")
    func tenBit() throws {
        let image = try coder.decode(Fixtures.data("heif/quad-10bit.heic"))
        #expect(image.pixelSize == Self.quadSize)
        #expect(image.pixels.isOpaque)
        expectPixels(image.pixels, quadrants(image.pixelSize, [.red, .green, .blue, .white]), tolerance: 12)
    }

    @Test("decodes the other top-level images as further frames")
    func collection() throws {
        let data = Fixtures.data("heif/two-images.heic")
        let image = try coder.decode(data)
        #expect(image.frames.count == 2)
        #expect(image.hasAlpha, "the second image has alpha")
        #expect(image.frames.allSatisfy { $0.duration == 0.1 })
        expectPixels(image.frames[0].pixels, quadrants(image.pixelSize, [.red, .green, .blue, .white]), tolerance: 12)
        expectPixels(image.frames[1].pixels, quadrants(image.pixelSize, [.red, .green, .blue, .clear]), tolerance: 12)

        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(!first.hasAlpha)
        #expect(first.pixels == image.frames[0].pixels)

        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(square: 32)
        let reduced = try coder.decode(data, options: thumbnail)
        #expect(reduced.frames.count == 2)
        #expect(reduced.pixelSize == PixelSize(width: 32, height: 24))

        let limited = #expect(throws: WebImageError.self) { try coder.decode(data, options: ImageDecodeOptions(maxFrameCount: 1)) }
        #expect(limited?.code == .imageTooLarge)
    }

    @Test("thumbnails are resampled to fit, from the image or its embedded thumbnail")
    func thumbnails() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 64)
        let full = try coder.decode(Fixtures.data("heif/photo.heic"))
        for name in ["photo", "photo-thumb"] {
            let image = try coder.decode(Fixtures.data("heif/\(name).heic"), options: options)
            #expect(image.pixelSize == PixelSize(width: 64, height: 48), "\(name)")
            // Close to the full image reduced the same way.
            let reduced = try full.pixels.resampled(to: image.pixelSize, hasAlpha: false)
            var worst = 0
            for y in stride(from: 4, to: 44, by: 8) {
                for x in stride(from: 4, to: 60, by: 8) {
                    worst = max(worst, image.pixels[x: x, y: y].distance(to: reduced[x: x, y: y]))
                }
            }
            #expect(worst <= 40, "\(name): \(worst)")
        }
        // Larger than the 96 x 72 thumbnail: decoded from the image.
        options.thumbnailPixelSize = PixelSize(square: 160)
        #expect(try coder.decode(Fixtures.data("heif/photo-thumb.heic"), options: options).pixelSize == PixelSize(width: 160, height: 120))
    }

    @Test("an embedded thumbnail large enough keeps the decode within limits the image is over")
    func embeddedThumbnailLimits() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 64)
        // The 96 x 72 thumbnail is within this limit, the 320 x 240 image is not.
        options.maxPixelCount = 96 * 72
        let image = try coder.decode(Fixtures.data("heif/photo-thumb.heic"), options: options)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        let error = #expect(throws: WebImageError.self) { try coder.decode(Fixtures.data("heif/photo.heic"), options: options) }
        #expect(error?.code == .imageTooLarge)

        // The same with the memory budget.
        var memory = ImageDecodeOptions()
        memory.thumbnailPixelSize = PixelSize(square: 64)
        memory.maxDecodeMemory = 200_000
        #expect(try coder.decode(Fixtures.data("heif/photo-thumb.heic"), options: memory).pixelSize == PixelSize(width: 64, height: 48))
        let budget = #expect(throws: WebImageError.self) { try coder.decode(Fixtures.data("heif/photo.heic"), options: memory) }
        #expect(budget?.code == .imageTooLarge)
        #expect(budget?.message.contains("decode memory budget") == true)
    }

    @Test("the pixel limit and the memory budget are checked before decoding")
    func limits() throws {
        let data = Fixtures.data("heif/photo.heic")
        let pixels = #expect(throws: WebImageError.self) { try coder.decode(data, options: ImageDecodeOptions(maxPixelCount: 320 * 240 - 1)) }
        #expect(pixels?.code == .imageTooLarge)
        #expect(pixels?.message.hasPrefix("HEIC:") == true)
        #expect(try coder.decode(data, options: ImageDecodeOptions(maxPixelCount: 320 * 240)).pixelSize == Self.photoSize)

        // 320 x 240 at 8 bits, opaque: 3 planes twice and 4 bytes of RGBA a pixel, 10 bytes a pixel.
        let needed = 320 * 240 * 10
        #expect(try coder.decode(data, options: ImageDecodeOptions(maxDecodeMemory: needed)).pixelSize == Self.photoSize)
        let memory = #expect(throws: WebImageError.self) { try coder.decode(data, options: ImageDecodeOptions(maxDecodeMemory: needed - 1)) }
        #expect(memory?.code == .imageTooLarge)
    }

    @Test("the scale factor is kept and the registry finds the coder")
    func registry() throws {
        let data = Fixtures.data("heif/quad.heic")
        let image = try coder.decode(data, options: ImageDecodeOptions(scaleFactor: 2))
        #expect(image.scale == 2)
        let registry = ImageCoderRegistry.makeDefault()
        #expect(registry.decoder(for: data) is HEIFCoder)
        #expect(try registry.decode(data).pixelSize == Self.quadSize)
        #expect(try registry.info(for: data).format == .heic)
    }

    @Test("decodes from many threads at once")
    func concurrent() async throws {
        let data = Fixtures.data("heif/photo.heic")
        let expected = try coder.decode(data)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { try HEIFCoder().decode(data).pixels == expected.pixels }
            }
            for try await same in group {
                #expect(same)
            }
        }
    }
}
