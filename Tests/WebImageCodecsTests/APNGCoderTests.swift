#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: APNG animations")
struct APNGCoderTests {
    let coder = PNGCoder()

    /// Expects a frame to be `color` everywhere (a few points) except at the listed exceptions.
    private func expectFrame(
        _ pixels: PixelBuffer,
        _ color: RGBAColor,
        except exceptions: [ExpectedPixel] = [],
        tolerance: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let taken = Set(exceptions.map { "\($0.x),\($0.y)" })
        let points = [(0, 0), (31, 0), (0, 23), (31, 23), (16, 12), (2, 20), (28, 3)]
            .filter { !taken.contains("\($0.0),\($0.1)") }
            .map { ExpectedPixel(x: $0.0, y: $0.1, color) }
        expectPixels(pixels, points + exceptions, tolerance: tolerance, sourceLocation: sourceLocation)
    }

    @Test("apngasm's file: four frames, the default image first, delays and loop count")
    func apngasm() throws {
        let data = Fixtures.data("png/apng-apngasm.png")
        let image = try coder.decode(data)
        #expect(image.format == .png)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(image.frames.count == 4)
        #expect(image.loopCount == 3)
        #expect(image.frames.map(\.duration) == [0.1, 0.2, 0.3, 0.4])
        #expect(image.hasAlpha)        // the file carries a tRNS colour
        for (frame, color) in zip(image.frames, [RGBAColor.red, .green, .blue, .white]) {
            expectFrame(frame.pixels, color)
        }
        let info = try coder.info(for: data)
        #expect(info.frameCount == 4)
        #expect(info.loopCount == 3)
        #expect(info.pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test("apngasm's file with a hidden default image: the frames come from fdAT only")
    func apngasmSkipFirst() throws {
        let image = try coder.decode(Fixtures.data("png/apng-apngasm-skip-first.png"))
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 0)
        #expect(image.frames.map(\.duration) == [0.2, 0.3, 0.4])
        for (frame, color) in zip(image.frames, [RGBAColor.green, .blue, .white]) {
            expectFrame(frame.pixels, color)
        }
    }

    @Test("a default image outside the animation is not a frame; short delays become 0.1 s")
    func hiddenDefault() throws {
        let data = Fixtures.data("png/apng-hidden-default.png")
        let image = try coder.decode(data)
        #expect(image.frames.count == 2)
        #expect(image.loopCount == 0)
        #expect(image.frames.map(\.duration) == [0.1, 0.1])
        expectFrame(image.frames[0].pixels, .red)
        expectFrame(image.frames[1].pixels, .green)
        // The first frame is the first animation frame, not the (yellow) default image.
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        expectFrame(first.pixels, .red)
        #expect(try coder.info(for: data).frameCount == 2)
    }

    @Test("offsets and blending: OVER mixes with the canvas, SOURCE replaces it")
    func blend() throws {
        let image = try coder.decode(Fixtures.data("png/apng-blend.png"))
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 2)
        #expect(image.frames.map(\.duration) == [0.1, 0.2, 0.3])
        expectFrame(image.frames[0].pixels, .blue)
        let purple = RGBAColor(red: 128, green: 0, blue: 127)
        let halfRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
        for (index, inside) in [(1, purple), (2, halfRed)] {
            expectFrame(image.frames[index].pixels, .blue, except: [
                ExpectedPixel(x: 8, y: 6, inside), ExpectedPixel(x: 23, y: 17, inside), ExpectedPixel(x: 16, y: 12, inside),
                ExpectedPixel(x: 7, y: 6, .blue), ExpectedPixel(x: 24, y: 17, .blue), ExpectedPixel(x: 8, y: 5, .blue),
                ExpectedPixel(x: 23, y: 18, .blue),
            ], tolerance: 1)
        }
    }

    @Test("disposal: BACKGROUND clears the region, PREVIOUS restores it; delays 0/0, 1/100, 5/0, 11/1000")
    func dispose() throws {
        let image = try coder.decode(Fixtures.data("png/apng-dispose.png"))
        #expect(image.frames.count == 4)
        #expect(image.loopCount == 1)
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.05, 0.011])
        let frames = image.frames.map(\.pixels)
        expectFrame(frames[0], .green)
        expectFrame(frames[1], .green, except: [
            ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 15, y: 11, .red), ExpectedPixel(x: 16, y: 11, .green),
        ])
        expectFrame(frames[2], .green, except: [
            ExpectedPixel(x: 0, y: 0, .clear), ExpectedPixel(x: 15, y: 11, .clear),
            ExpectedPixel(x: 16, y: 12, .blue), ExpectedPixel(x: 31, y: 23, .blue), ExpectedPixel(x: 15, y: 12, .green),
        ])
        expectFrame(frames[3], .green, except: [
            ExpectedPixel(x: 0, y: 0, .clear), ExpectedPixel(x: 15, y: 11, .clear),
            ExpectedPixel(x: 16, y: 12, .green), ExpectedPixel(x: 30, y: 23, .green), ExpectedPixel(x: 31, y: 23, .white),
        ])
        #expect(image.hasAlpha)
    }

    @Test("PREVIOUS on the first frame acts as BACKGROUND")
    func firstFramePrevious() throws {
        let image = try coder.decode(Fixtures.data("png/apng-first-previous.png"))
        #expect(image.frames.count == 2)
        expectFrame(image.frames[0].pixels, .red)
        expectFrame(image.frames[1].pixels, .clear, except: [
            ExpectedPixel(x: 0, y: 0, .green), ExpectedPixel(x: 7, y: 7, .green), ExpectedPixel(x: 8, y: 7, .clear),
        ])
    }

    @Test("a palette animation shares PLTE and tRNS with every frame")
    func palette() throws {
        let image = try coder.decode(Fixtures.data("png/apng-palette.png"))
        #expect(image.frames.count == 3)
        #expect(image.hasAlpha)
        expectFrame(image.frames[0].pixels, .red)
        let hole = [ExpectedPixel(x: 4, y: 4, .clear), ExpectedPixel(x: 11, y: 11, .clear), ExpectedPixel(x: 12, y: 11, .red)]
        expectFrame(image.frames[1].pixels, .red, except: hole)
        expectFrame(image.frames[2].pixels, .red, except: hole + [
            ExpectedPixel(x: 20, y: 12, .blue), ExpectedPixel(x: 27, y: 19, .blue), ExpectedPixel(x: 28, y: 19, .red),
        ])
    }

    @Test("firstFrameOnly decodes the default image when it is frame 0")
    func firstFrameOnly() throws {
        let image = try coder.decode(Fixtures.data("png/apng-blend.png"), options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(image.frames.count == 1)
        #expect(image.loopCount == 0)
        expectFrame(image.pixels, .blue)
    }

    @Test("a thumbnail applies to every frame")
    func thumbnail() throws {
        let image = try coder.decode(
            Fixtures.data("png/apng-dispose.png"),
            options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16))
        )
        #expect(image.frames.count == 4)
        #expect(image.frames.allSatisfy { $0.pixels.size == PixelSize(width: 16, height: 12) })
        expectPixels(image.frames[1].pixels, quadrants(PixelSize(width: 16, height: 12), [.red, .green, .green, .green]), tolerance: 2)
        expectPixels(image.frames[2].pixels, quadrants(PixelSize(width: 16, height: 12), [.clear, .green, .green, .blue]), tolerance: 2)
    }

    @Test("the pixel budget counts every frame; the first frame alone may fit")
    func pixelBudget() throws {
        let data = Fixtures.data("png/apng-dispose.png")   // 32 x 24 x 4 frames = 3072 pixels
        #expect {
            try coder.decode(data, options: ImageDecodeOptions(maxPixelCount: 3000))
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
        let first = try coder.decode(data, options: ImageDecodeOptions(firstFrameOnly: true, maxPixelCount: 800))
        #expect(first.frames.count == 1)
        // A scale-down limit shrinks every frame to fit the budget instead.
        let scaled = try coder.decode(data, options: ImageDecodeOptions(scaleDownLimitBytes: 16 * 12 * 4 * 4))
        #expect(scaled.frames.count == 4)
        #expect(scaled.pixelSize == PixelSize(width: 16, height: 12))
    }
}
