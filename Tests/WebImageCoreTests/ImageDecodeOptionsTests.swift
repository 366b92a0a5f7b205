import Testing
import WebImageCore

@Suite struct ImageDecodeOptionsTests {
    let photo = PixelSize(width: 4000, height: 3000)

    @Test func defaultsDecodeFullSize() throws {
        let options = ImageDecodeOptions()
        #expect(!options.requestsReduction)
        #expect(try options.targetSize(for: photo, format: .jpeg) == photo)
    }

    @Test func thumbnailFitsInsideTheRequestedSize() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 256))
        #expect(options.requestsReduction)
        #expect(try options.targetSize(for: photo, format: .jpeg) == PixelSize(width: 256, height: 192))
        let stretched = ImageDecodeOptions(preserveAspectRatio: false, thumbnailPixelSize: PixelSize(square: 256))
        #expect(try stretched.targetSize(for: photo, format: .jpeg) == PixelSize(square: 256))
        // Never larger than the source.
        #expect(try options.targetSize(for: PixelSize(width: 100, height: 50), format: .png) == PixelSize(width: 100, height: 50))
    }

    @Test func scaleDownLimitAppliesOnlyAboveTheLimit() throws {
        let options = ImageDecodeOptions(scaleDownLimitBytes: 4 * 1_000_000)
        #expect(try options.targetSize(for: PixelSize(width: 500, height: 500), format: .png) == PixelSize(width: 500, height: 500))
        let reduced = try options.targetSize(for: photo, format: .png)
        #expect(reduced.pixelCount <= 1_000_000)
        #expect(reduced == photo.scaled(toLimitBytes: 4_000_000))
        // Zero means the default limit of 60 MiB.
        let byDefault = ImageDecodeOptions(scaleDownLimitBytes: 0)
        let big = PixelSize(width: 10000, height: 10000)
        #expect(try byDefault.targetSize(for: big, format: .png) == big.scaled(toLimitBytes: ImageDecodeOptions.defaultScaleDownLimitBytes))
    }

    @Test func theSmallerOfThumbnailAndLimitWins() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 2000), scaleDownLimitBytes: 4 * 10_000)
        #expect(try options.targetSize(for: photo, format: .jpeg) == photo.scaled(toLimitBytes: 40_000))
        let other = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64), scaleDownLimitBytes: 4 * 1_000_000)
        #expect(try other.targetSize(for: photo, format: .jpeg) == PixelSize(width: 64, height: 48))
    }

    @Test func animationFramesShareTheLimit() throws {
        let options = ImageDecodeOptions(scaleDownLimitBytes: 4 * 10_000)
        let size = try options.targetSize(for: PixelSize(square: 1000), frameCount: 4, format: .gif)
        #expect(size == PixelSize(square: 50))
        var first = options
        first.firstFrameOnly = true
        #expect(try first.targetSize(for: PixelSize(square: 1000), frameCount: 4, format: .gif) == PixelSize(square: 100))
    }

    @Test func pixelLimitRefusesLargeDecodes() throws {
        let options = ImageDecodeOptions()
        #expect(throws: WebImageError.self) {
            try options.targetSize(for: PixelSize(width: 30000, height: 30000), format: .png)
        }
        do {
            _ = try options.targetSize(for: PixelSize(width: 1000, height: 1000), frameCount: 101, format: .gif)
            Issue.record("101 megapixels over frames must be refused")
        } catch {
            #expect(error.code == .imageTooLarge)
            #expect(error.message.contains("101 frames"))
        }
        // A thumbnail small enough passes, however large the source.
        let thumb = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 256))
        #expect(try thumb.targetSize(for: PixelSize(width: 30000, height: 30000), format: .png) == PixelSize(square: 256))
        // No limit.
        let unlimited = ImageDecodeOptions(maxPixelCount: 0)
        #expect(try unlimited.targetSize(for: PixelSize(width: 30000, height: 30000), format: .png) == PixelSize(width: 30000, height: 30000))
    }

    @Test func scaleFactorIsClamped() {
        #expect(ImageDecodeOptions(scaleFactor: 0.5).effectiveScale == 1)
        #expect(ImageDecodeOptions(scaleFactor: 3).effectiveScale == 3)
    }

    @Test func reducedDecodesReadAtMostSixteenTimesThePixelLimit() throws {
        let thumb = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 64))
        // A still source: 1.6 gigapixels is the most a reduced decode reads by default.
        #expect(try thumb.targetSize(for: PixelSize(width: 40000, height: 40000), format: .png) == PixelSize(square: 64))
        #expect(throws: WebImageError.self) { try thumb.targetSize(for: PixelSize(width: 40000, height: 40001), format: .png) }
        // An animation: the canvas is read once per frame.
        let canvas = PixelSize(width: 10000, height: 10000)
        #expect(try thumb.targetSize(for: canvas, frameCount: 16, format: .gif) == PixelSize(square: 64))
        do {
            _ = try thumb.targetSize(for: canvas, frameCount: 17, format: .gif)
            Issue.record("17 frames of 100 megapixels must be refused, however small the output")
        } catch {
            #expect(error.code == .imageTooLarge)
            #expect(error.message.contains("even reduced"))
        }
        // The frame sources apply the same work limit, the pixel limit to the canvas and to one frame only.
        #expect(throws: WebImageError.self) { try thumb.frameSize(forCanvas: canvas, frameCount: 17, format: .gif) }
        #expect(try thumb.frameSize(forCanvas: PixelSize(square: 1000), frameCount: 1000, format: .gif) == PixelSize(square: 64))
        #expect(throws: WebImageError.self) { try ImageDecodeOptions().frameSize(forCanvas: PixelSize(square: 10001), frameCount: 1, format: .gif) }
        #expect(try ImageDecodeOptions().frameSize(forCanvas: PixelSize(square: 1000), frameCount: 1000, format: .gif) == PixelSize(square: 1000))
    }

    @Test func frameLimit() throws {
        let options = ImageDecodeOptions()
        #expect(options.maxFrameCount == 10_000)
        #expect(try options.targetSize(for: PixelSize(square: 1), frameCount: 10_000, format: .gif) == PixelSize(square: 1))
        do {
            _ = try options.targetSize(for: PixelSize(square: 1), frameCount: 10_001, format: .gif)
            Issue.record("10001 frames must be refused")
        } catch {
            #expect(error.code == .imageTooLarge)
            #expect(error.message == "GIF: 10001 frames is over the limit of 10000 frames")
        }
        // The first frame alone is always allowed; 0 lifts the limit.
        #expect(try ImageDecodeOptions(firstFrameOnly: true).targetSize(for: PixelSize(square: 1), frameCount: 50_000, format: .gif) == PixelSize(square: 1))
        #expect(try ImageDecodeOptions(maxFrameCount: 0).targetSize(for: PixelSize(square: 1), frameCount: 50_000, format: .gif) == PixelSize(square: 1))
    }

    @Test func hugeRequestedSizesDoNotTrap() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: Int.max))
        #expect(try options.targetSize(for: PixelSize(width: 300, height: 200), format: .png) == PixelSize(width: 300, height: 200))
        let stretched = PixelSize(width: 3, height: 1).scaled(toFit: PixelSize(width: Int.max, height: 1), allowUpscaling: true)
        #expect(stretched.width == 3 && stretched.height == 1)
        let tall = PixelSize(width: 1, height: 3).scaled(toFit: PixelSize(width: 1, height: Int.max), allowUpscaling: true)
        #expect(tall == PixelSize(width: 1, height: 3))
        let wide = PixelSize(width: 1000, height: 1).scaled(toFit: PixelSize(width: 1, height: Int.max), allowUpscaling: true)
        #expect(wide.width == 1 && wide.height == 1)
        let sized = try ImageDecodeOptions(scaleDownLimitBytes: Int.max, maxPixelCount: 0, maxFrameCount: 0).targetSize(for: PixelSize(square: 100), frameCount: Int.max / 2, format: .gif)
        #expect(sized.pixelCount >= 1)
    }
}

