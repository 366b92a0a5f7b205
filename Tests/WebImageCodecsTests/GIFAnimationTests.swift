#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite struct GIFAnimationTests {
    let coder = GIFCoder()

    /// Points of the 32 x 24 disposal fixtures: the blue corner block, the green centre block, a red corner, the
    /// white corner block, and a point the green block covers on its way out (for frames outside the canvas).
    let blueCorner = (x: 2, y: 2)
    let greenCentre = (x: 16, y: 12)
    let redCorner = (x: 29, y: 2)
    let whiteCorner = (x: 28, y: 21)

    private func expectCanvas(
        _ pixels: PixelBuffer,
        blue: RGBAColor, centre: RGBAColor, red: RGBAColor, white: RGBAColor,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectPixels(pixels, [
            ExpectedPixel(x: blueCorner.x, y: blueCorner.y, blue),
            ExpectedPixel(x: greenCentre.x, y: greenCentre.y, centre),
            ExpectedPixel(x: redCorner.x, y: redCorner.y, red),
            ExpectedPixel(x: whiteCorner.x, y: whiteCorner.y, white),
        ], sourceLocation: sourceLocation)
    }

    @Test func framesColoursAndDurations() throws {
        let image = try coder.decode(Fixtures.data("gif/anim.gif"))
        #expect(image.isAnimated)
        #expect(image.frames.count == 4)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(!image.hasAlpha)
        for (frame, color) in zip(image.frames, [RGBAColor.red, .green, .blue, .white]) {
            expectPixels(frame.pixels, quadrants(image.pixelSize, [color, color, color, color]))
        }
        // Delays of 0 and 1 centisecond are under 0.011 s and show for 0.1 s; 10 and 50 are kept.
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.1, 0.5])
    }

    @Test(arguments: [("gif/anim.gif", 0), ("gif/anim-noloop.gif", 1), ("gif/anim-loop3.gif", 3)])
    func loopCounts(path: String, loops: Int) throws {
        let image = try coder.decode(Fixtures.data(path))
        #expect(image.loopCount == loops)
        #expect(try coder.info(for: Fixtures.data(path)).loopCount == loops)
    }

    @Test func localColourTables() throws {
        // Index 0 is red in the global table, green and blue in the two local ones.
        let image = try coder.decode(Fixtures.data("gif/anim-local.gif"))
        #expect(image.frames.count == 3)
        for (frame, color) in zip(image.frames, [RGBAColor.red, .green, .blue]) {
            expectPixels(frame.pixels, quadrants(image.pixelSize, [color, color, color, color]))
        }
    }

    @Test func disposalNone() throws {
        let frames = try coder.decode(Fixtures.data("gif/dispose-none.gif")).frames
        #expect(frames.count == 4)
        expectCanvas(frames[0].pixels, blue: .red, centre: .red, red: .red, white: .red)
        expectCanvas(frames[1].pixels, blue: .red, centre: .green, red: .red, white: .red)
        expectCanvas(frames[2].pixels, blue: .blue, centre: .green, red: .red, white: .red)
        // The last frame is transparent but for its white corner: the canvas shows through.
        expectCanvas(frames[3].pixels, blue: .blue, centre: .green, red: .red, white: .white)
    }

    @Test func disposalBackgroundClearsToTransparent() throws {
        let image = try coder.decode(Fixtures.data("gif/dispose-background.gif"))
        #expect(image.hasAlpha)
        let frames = image.frames
        expectCanvas(frames[1].pixels, blue: .red, centre: .green, red: .red, white: .red)
        expectCanvas(frames[2].pixels, blue: .blue, centre: .clear, red: .red, white: .red)
        expectCanvas(frames[3].pixels, blue: .blue, centre: .clear, red: .red, white: .white)
        // Only the green frame's rectangle was cleared: just outside it is still red.
        #expect(frames[2].pixels[x: 7, y: 12] == .red)
        #expect(frames[2].pixels[x: 8, y: 6].alpha == 0)
        #expect(frames[2].pixels[x: 24, y: 12] == .red)
    }

    @Test func disposalPreviousRestoresTheCanvas() throws {
        let frames = try coder.decode(Fixtures.data("gif/dispose-previous.gif")).frames
        expectCanvas(frames[1].pixels, blue: .red, centre: .green, red: .red, white: .red)
        expectCanvas(frames[2].pixels, blue: .blue, centre: .red, red: .red, white: .red)
        expectCanvas(frames[3].pixels, blue: .blue, centre: .red, red: .red, white: .white)
    }

    @Test func framesOutsideTheCanvasAreClipped() throws {
        let image = try coder.decode(Fixtures.data("gif/outside.gif"))
        #expect(image.frames.count == 3)
        let frames = image.frames
        // The green frame at (24, 18) shows its top-left 8 x 6 corner only.
        expectPixels(frames[1].pixels, [
            ExpectedPixel(x: 24, y: 18, .green), ExpectedPixel(x: 31, y: 23, .green),
            ExpectedPixel(x: 23, y: 18, .red), ExpectedPixel(x: 24, y: 17, .red), ExpectedPixel(x: 16, y: 12, .red),
        ])
        // The blue frame at (40, 30) is wholly outside: the canvas is unchanged and the buffer is shared.
        #expect(frames[2].pixels === frames[1].pixels)
        #expect(image.uniqueFrameCount == 2)
    }

    @Test func firstFrameOnlyIsAStill() throws {
        let image = try coder.decode(Fixtures.data("gif/anim-loop3.gif"), options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(image.frames.count == 1)
        #expect(!image.isAnimated)
        #expect(image.loopCount == 0)
        #expect(image.frames[0].duration == 0)
        expectPixels(image.pixels, quadrants(image.pixelSize, [.red, .red, .red, .red]))
        // The first frame of the background fixture is opaque: only later frames bring transparency.
        let first = try coder.decode(Fixtures.data("gif/dispose-background.gif"), options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(!first.hasAlpha)
    }

    @Test func thumbnailOfAnAnimationResamplesEveryFrame() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16))
        let image = try coder.decode(Fixtures.data("gif/dispose-previous.gif"), options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        #expect(image.frames.count == 4)
        expectPixels(image.frames[1].pixels, [ExpectedPixel(x: 8, y: 6, .green), ExpectedPixel(x: 14, y: 1, .red)], tolerance: 2)
        expectPixels(image.frames[2].pixels, [ExpectedPixel(x: 1, y: 1, .blue), ExpectedPixel(x: 8, y: 6, .red)], tolerance: 2)
    }

    @Test func pixelBudgetCountsEveryFrame() throws {
        // 4 frames of 32 x 24 are 3072 pixels.
        var options = ImageDecodeOptions()
        options.maxPixelCount = 3072
        #expect(try coder.decode(Fixtures.data("gif/anim.gif"), options: options).frames.count == 4)
        options.maxPixelCount = 3071
        gifExpectError(.imageTooLarge) { try coder.decode(Fixtures.data("gif/anim.gif"), options: options) }
        // A scale-down limit fits all frames in the budget instead.
        options.scaleDownLimitBytes = 4 * 16 * 12 * 4
        let reduced = try coder.decode(Fixtures.data("gif/anim.gif"), options: options)
        #expect(reduced.pixelSize.pixelCount * 4 <= 3071)
    }

    // MARK: Frame source

    @Test func providerMatchesTheFullDecode() throws {
        let data = Fixtures.data("gif/dispose-background.gif")
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.format == .gif)
        #expect(provider.frameCount == 4)
        #expect(provider.loopCount == 0)
        #expect(provider.hasAlpha)
        #expect(provider.frameSize == PixelSize(width: 32, height: 24))
        #expect(provider.animatedImageData == data)
        for index in 0..<4 {
            #expect(try provider.frame(at: index) == full.frames[index].pixels, "frame \(index)")
            #expect(provider.duration(ofFrameAt: index) == full.frames[index].duration)
        }
        #expect(provider.duration(ofFrameAt: 4) == 0)
        #expect(provider.duration(ofFrameAt: -1) == 0)
    }

    @Test func providerGoesBackSkipsAheadAndRepeats() throws {
        let data = Fixtures.data("gif/dispose-previous.gif")
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(try provider.frame(at: 3) == full.frames[3].pixels)
        #expect(try provider.frame(at: 1) == full.frames[1].pixels)
        let again = try provider.frame(at: 1)
        #expect(try provider.frame(at: 1) === again)
        #expect(try provider.frame(at: 2) == full.frames[2].pixels)
        #expect(try provider.frame(at: 0) == full.frames[0].pixels)
        gifExpectError(.badImageData) { try provider.frame(at: 4) }
        gifExpectError(.badImageData) { try provider.frame(at: -1) }
        // Still usable after a bad request.
        #expect(try provider.frame(at: 3) == full.frames[3].pixels)
    }

    @Test func providerFromManyThreads() async throws {
        let data = Fixtures.data("gif/dispose-none.gif")
        let full = try coder.decode(data)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<20 {
                        let index = (task + step) % 4
                        let pixels = try provider.frame(at: index)
                        #expect(pixels == full.frames[index].pixels)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func providerAppliesTheThumbnailSize() throws {
        let data = Fixtures.data("gif/anim.gif")
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 16))
        let full = try coder.decode(data, options: options)
        let provider = try coder.makeAnimatedImageProvider(for: data, options: options)
        #expect(provider.frameSize == PixelSize(width: 16, height: 12))
        for index in 0..<4 {
            #expect(try provider.frame(at: index) == full.frames[index].pixels)
        }
    }

    @Test func providerRefusesBadData() {
        gifExpectError(.badImageData) { try coder.makeAnimatedImageProvider(for: Data(), options: ImageDecodeOptions()) }
        let truncated = Fixtures.data("gif/anim.gif").prefix(100)
        gifExpectError(.badImageData) { try coder.makeAnimatedImageProvider(for: truncated, options: ImageDecodeOptions()) }
    }
}
