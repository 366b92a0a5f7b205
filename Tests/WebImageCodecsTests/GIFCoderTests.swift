#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite struct GIFCoderTests {
    let coder = GIFCoder()
    let quadColors: [RGBAColor] = [.red, .green, .blue, .white]

    @Test(arguments: ["gif/quad.gif", "gif/quad87.gif"])
    func stillQuadrantsAreExact(path: String) throws {
        let data = Fixtures.data(path)
        #expect(coder.canDecode(data))
        let image = try coder.decode(data)
        #expect(image.format == .gif)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == 0)
        #expect(image.loopCount == 0)
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
        expectPixels(image.pixels, quadrants(image.pixelSize, quadColors))
        // Exact up to the edges of the quadrants.
        expectPixels(image.pixels, [
            ExpectedPixel(x: 31, y: 23, .red), ExpectedPixel(x: 32, y: 23, .green),
            ExpectedPixel(x: 31, y: 24, .blue), ExpectedPixel(x: 32, y: 24, .white),
        ])
    }

    @Test func gif87AndGif89DecodeToTheSamePixels() throws {
        let a = try coder.decode(Fixtures.data("gif/quad.gif"))
        let b = try coder.decode(Fixtures.data("gif/quad87.gif"))
        #expect(a.pixels == b.pixels)
    }

    @Test func transparentIndexIsTransparent() throws {
        let image = try coder.decode(Fixtures.data("gif/quad-alpha.gif"))
        #expect(image.hasAlpha)
        expectPixels(image.pixels, quadrants(image.pixelSize, [.red, .green, .blue, .clear]))
        #expect(image.pixels[x: 63, y: 47].alpha == 0)
        #expect(image.pixels[x: 31, y: 47] == .blue)
    }

    @Test func interlacedEqualsNonInterlaced() throws {
        let plain = try coder.decode(Fixtures.data("gif/photo.gif"))
        let interlaced = try coder.decode(Fixtures.data("gif/photo-interlaced.gif"))
        #expect(plain.pixelSize == PixelSize(width: 160, height: 120))
        #expect(plain.pixels == interlaced.pixels)
        // Not a flat image: rows differ, so a wrong row order would show.
        #expect(plain.pixels[x: 80, y: 1] != plain.pixels[x: 80, y: 100])
    }

    @Test func firstFrameNotCoveringTheCanvasLeavesItTransparent() throws {
        let image = try coder.decode(Fixtures.data("gif/offset.gif"))
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(image.hasAlpha)
        expectPixels(image.pixels, [
            ExpectedPixel(x: 16, y: 12, .green), ExpectedPixel(x: 8, y: 6, .green), ExpectedPixel(x: 23, y: 17, .green),
            ExpectedPixel(x: 2, y: 2, .clear), ExpectedPixel(x: 7, y: 12, .clear), ExpectedPixel(x: 24, y: 12, .clear),
            ExpectedPixel(x: 16, y: 18, .clear),
        ])
    }

    @Test func frameLargerThanTheCanvasIsClipped() throws {
        let image = try coder.decode(Fixtures.data("gif/large-frame.gif"))
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(!image.hasAlpha)
        expectPixels(image.pixels, [
            ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 31, y: 0, .red),
            ExpectedPixel(x: 0, y: 23, .red), ExpectedPixel(x: 31, y: 23, .red),
        ])
    }

    @Test func infoReadsTheRecordsOnly() throws {
        let still = try coder.info(for: Fixtures.data("gif/quad-alpha.gif"))
        #expect(still == ImageInfo(format: .gif, pixelSize: PixelSize(width: 64, height: 48), hasAlpha: true))
        let opaque = try coder.info(for: Fixtures.data("gif/quad87.gif"))
        #expect(!opaque.hasAlpha)
        let animation = try coder.info(for: Fixtures.data("gif/anim-loop3.gif"))
        #expect(animation.pixelSize == PixelSize(width: 32, height: 24))
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 3)
        #expect(!animation.hasAlpha)
        let disposal = try coder.info(for: Fixtures.data("gif/dispose-background.gif"))
        #expect(disposal.frameCount == 4)
        #expect(disposal.hasAlpha)
    }

    @Test func formatsAndScale() throws {
        #expect(coder.canEncode(to: .gif))
        #expect(!coder.canEncode(to: .png))
        #expect(!coder.canDecode(Data()))
        #expect(!coder.canDecode(Data("GIF90a".utf8)))
        let image = try coder.decode(Fixtures.data("gif/quad.gif"), options: ImageDecodeOptions(scaleFactor: 2))
        #expect(image.scale == 2)
    }

    @Test func thumbnailStreamsRowsOfAStill() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 32))
        let image = try coder.decode(Fixtures.data("gif/quad.gif"), options: options)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(image.pixels, quadrants(image.pixelSize, quadColors), tolerance: 2)
        let transparent = try coder.decode(Fixtures.data("gif/quad-alpha.gif"), options: options)
        expectPixels(transparent.pixels, quadrants(transparent.pixelSize, [.red, .green, .blue, .clear]), tolerance: 2)
    }

    @Test func interlacedAndStreamedReductionsAgree() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 50))
        let plain = try coder.decode(Fixtures.data("gif/photo.gif"), options: options)
        let interlaced = try coder.decode(Fixtures.data("gif/photo-interlaced.gif"), options: options)
        #expect(plain.pixelSize == PixelSize(width: 50, height: 38))
        #expect(plain.pixels == interlaced.pixels)
        // The reduction of the full decode, for comparison.
        let full = try coder.decode(Fixtures.data("gif/photo.gif"))
        #expect(try full.pixels.resampled(to: plain.pixelSize, hasAlpha: false) == plain.pixels)
    }

    @Test func scaleDownLimitReducesAStill() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 32 * 24 * 4
        let image = try coder.decode(Fixtures.data("gif/quad.gif"), options: options)
        #expect(image.pixelCount <= 32 * 24)
        expectPixels(image.pixels, quadrants(image.pixelSize, quadColors), tolerance: 2)
    }

    @Test func stillOverThePixelLimitIsStreamedUnlessInterlaced() throws {
        var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 40))
        options.maxPixelCount = 10_000    // the photo is 19 200 pixels
        let plain = try coder.decode(Fixtures.data("gif/photo.gif"), options: options)
        #expect(plain.pixelSize == PixelSize(width: 40, height: 30))
        gifExpectError(.imageTooLarge) { try coder.decode(Fixtures.data("gif/photo-interlaced.gif"), options: options) }
        // Without a reduction, the limit refuses both.
        options.thumbnailPixelSize = nil
        gifExpectError(.imageTooLarge) { try coder.decode(Fixtures.data("gif/photo.gif"), options: options) }
    }
}

private extension Image {
    var pixelCount: Int { pixelSize.pixelCount }
}
