#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: thumbnails and reduced decoding")
struct PNGThumbnailTests {
    let coder = PNGCoder()

    @Test("a thumbnail within the pixel limit equals the full decode resampled")
    func thumbnailMatchesResampledFull() throws {
        let data = Fixtures.data("source/photo.png")
        let full = try coder.decode(data)
        let thumbnail = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 80)))
        #expect(thumbnail.pixelSize == PixelSize(width: 80, height: 60))
        #expect(!thumbnail.hasAlpha)
        #expect(thumbnail.pixels == (try full.pixels.resampled(to: PixelSize(width: 80, height: 60), hasAlpha: false)))
    }

    @Test("a thumbnail keeps the quadrant colours, alpha included")
    func thumbnailColors() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16))
        let image = try coder.decode(Fixtures.data("png/rgba8.png"), options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        expectPixels(image.pixels, quadrants(image.pixelSize, [
            .red, .green, .blue, RGBAColor(red: 255, green: 0, blue: 0, alpha: 127),
        ]), tolerance: 2)
    }

    @Test("a thumbnail never enlarges; stretching ignores the aspect ratio")
    func thumbnailSizes() throws {
        let data = Fixtures.data("png/rgb8.png")
        let large = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 500)))
        #expect(large.pixelSize == PixelSize(width: 64, height: 48))
        let stretched = try coder.decode(data, options: ImageDecodeOptions(
            preserveAspectRatio: false,
            thumbnailPixelSize: PixelSize(width: 10, height: 30)
        ))
        #expect(stretched.pixelSize == PixelSize(width: 10, height: 30))
    }

    @Test("a scale-down limit reduces the image to fit the byte budget")
    func scaleDownLimit() throws {
        let data = Fixtures.data("source/photo.png")
        let image = try coder.decode(data, options: ImageDecodeOptions(scaleDownLimitBytes: 160 * 120 * 4))
        #expect(image.pixelSize == PixelSize(width: 160, height: 120))
        let untouched = try coder.decode(data, options: ImageDecodeOptions(scaleDownLimitBytes: 320 * 240 * 4))
        #expect(untouched.pixelSize == PixelSize(width: 320, height: 240))
    }

    @Test("over the pixel limit without a reduction: imageTooLarge before any pixels")
    func overLimitRefused() {
        #expect {
            try coder.decode(Fixtures.data("source/photo.png"), options: ImageDecodeOptions(maxPixelCount: 320 * 240 - 1))
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
    }

    static let streamable = [
        "gray1.png", "gray2.png", "gray4.png", "gray8.png", "gray16.png", "gray-alpha8.png", "gray-alpha16.png",
        "rgb8.png", "rgb16.png", "rgba8.png", "rgba16.png", "palette1.png", "palette2.png", "palette4.png",
        "palette8.png", "palette1-trns.png", "palette2-trns.png", "palette4-trns.png", "palette8-trns.png",
        "rgb16-no-gamma.png", "photo-crop.png",
    ]

    @Test("a thumbnail is streamed row by row, within the pixel limit or over it, with the pixels of the full decode resampled", arguments: streamable)
    func streamedEqualsInMemory(_ file: String) throws {
        let data = Fixtures.data("png/\(file)")
        let thumbnail = PixelSize(square: 32)
        let streamed = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: thumbnail))
        // The full decode goes through libpng's simplified reader, the streamed one through its row reader.
        let full = try coder.decode(data)
        #expect(streamed.hasAlpha == full.hasAlpha)
        #expect(streamed.pixels == (try full.pixels.resampled(to: streamed.pixelSize, hasAlpha: full.hasAlpha)))
        // 1000 pixels: every source here is larger, every 32-pixel thumbnail smaller.
        let overLimit = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: thumbnail, maxPixelCount: 1000))
        #expect(overLimit.pixelSize == streamed.pixelSize)
        #expect(overLimit.pixels == streamed.pixels)
    }

    @Test("a file with linear gamma (gAMA 1.0) is converted to sRGB alike by the full decode and streamed")
    func linearGamma() throws {
        // 64 x 64 RGB: red rises along x, green along y, blue is 128 in linear light: 186 to 188 in sRGB,
        // depending on whether the sRGB curve or libpng's 2.2 power law is used.
        var raw: [UInt8] = []
        for y in 0..<64 {
            raw.append(0)
            for x in 0..<64 { raw += [UInt8(x * 4), UInt8(y * 4), 128] }
        }
        let data = Data(PNGCraft.signature + PNGCraft.ihdr(width: 64, height: 64, colorType: 2)
            + PNGCraft.chunk("gAMA", PNGCraft.bigEndian(100_000))
            + PNGCraft.chunk("IDAT", PNGCraft.compress(raw)) + PNGCraft.chunk("IEND"))
        let full = try coder.decode(data)
        #expect((186...188).contains(full.pixels[x: 10, y: 10].blue))
        let thumbnail = PixelSize(square: 16)
        let streamed = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: thumbnail))
        #expect(streamed.pixels == (try full.pixels.resampled(to: thumbnail, hasAlpha: false)))
    }

    @Test("over the pixel limit with a scale-down limit: streamed too")
    func streamedScaleDown() throws {
        let data = Fixtures.data("source/photo.png")
        let options = ImageDecodeOptions(scaleDownLimitBytes: 80 * 60 * 4, maxPixelCount: 10_000)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 80, height: 60))
        let reference = try coder.decode(data, options: ImageDecodeOptions(scaleDownLimitBytes: 80 * 60 * 4))
        #expect(image.pixels == reference.pixels)
    }

    @Test("an interlaced image over the pixel limit cannot be streamed: imageTooLarge")
    func interlacedOverLimit() throws {
        let data = Fixtures.data("png/photo-crop-interlaced.png")
        #expect {
            try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 20), maxPixelCount: 1000))
        } throws: { error in
            guard let error = error as? WebImageError else { return false }
            return error.code == .imageTooLarge && error.message.contains("interlaced")
        }
        // Within the limit the same file is reduced through a scratch buffer.
        let image = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 20)))
        #expect(image.pixelSize == PixelSize(width: 20, height: 15))
    }

    @Test("a thumbnail that is itself over the pixel limit is refused")
    func thumbnailOverLimit() {
        #expect {
            try coder.decode(
                Fixtures.data("source/photo.png"),
                options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 200), maxPixelCount: 1000)
            )
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
    }
}
