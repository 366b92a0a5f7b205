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
}
