#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

@Suite("JPEG DCT scaling and pixel limits")
struct JPEGScalingTests {
    let coder = JPEGCoder()

    @Test("TurboJPEG's reducing factors run from 1/8 to 1/1 in eighths")
    func factors() {
        let factors = JPEGScalingFactor.reducing
        #expect(factors.first == JPEGScalingFactor(numerator: 1, denominator: 8))
        #expect(factors.last == .one)
        #expect(factors.count == 8)
        #expect(JPEGScalingFactor(numerator: 3, denominator: 8).scale(PixelSize(width: 321, height: 9))
            == PixelSize(width: 121, height: 4))
    }

    @Test(
        "the smallest factor that covers the target is chosen",
        arguments: [
            (PixelSize(width: 40, height: 30), "1/8", PixelSize(width: 40, height: 30)),
            (PixelSize(width: 41, height: 30), "1/4", PixelSize(width: 80, height: 60)),
            (PixelSize(width: 80, height: 60), "1/4", PixelSize(width: 80, height: 60)),
            (PixelSize(width: 100, height: 75), "3/8", PixelSize(width: 120, height: 90)),
            (PixelSize(width: 200, height: 150), "5/8", PixelSize(width: 200, height: 150)),
            (PixelSize(width: 300, height: 225), "1/1", PixelSize(width: 320, height: 240)),
            (PixelSize(width: 320, height: 240), "1/1", PixelSize(width: 320, height: 240)),
        ]
    )
    func factorChoice(target: PixelSize, factor: String, scaled: PixelSize) {
        let choice = JPEGScalingFactor.smallest(scaling: PixelSize(width: 320, height: 240), toCover: target)
        #expect(choice.factor.description == factor)
        #expect(choice.size == scaled)
    }

    @Test("a 40 x 30 thumbnail of the photo is decoded at 1/8, with the source's colours")
    func photoAtOneEighth() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 40, height: 30)
        let plan = try JPEGDecodePlan(storedSize: PixelSize(width: 320, height: 240), orientation: .up, options: options)
        #expect(plan.factor == JPEGScalingFactor(numerator: 1, denominator: 8))
        #expect(plan.decodesIntoFinalBuffer)

        let thumbnail = try coder.decode(JPEGFixture.data("photo"), options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 40, height: 30))
        try JPEGFixture.expectClose(thumbnail.pixels, to: JPEGFixture.photoReference())
    }

    @Test("a thumbnail between factors is decoded larger, then resampled")
    func photoResampled() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        let plan = try JPEGDecodePlan(storedSize: PixelSize(width: 320, height: 240), orientation: .up, options: options)
        #expect(plan.outputSize == PixelSize(width: 100, height: 75))
        #expect(plan.factor == JPEGScalingFactor(numerator: 3, denominator: 8))
        #expect(plan.resamples)

        let thumbnail = try coder.decode(JPEGFixture.data("photo"), options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 75))
        // Its colours, reduced further, are the source's.
        let reduced = try thumbnail.pixels.resampled(to: PixelSize(width: 40, height: 30), hasAlpha: false)
        try JPEGFixture.expectClose(reduced, to: JPEGFixture.photoReference(), mean: 4, most: 32)
    }

    @Test("the scale-down limit is met with DCT scaling too")
    func scaleDownLimit() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 40 * 30 * 4
        let image = try coder.decode(JPEGFixture.data("photo"), options: options)
        #expect(image.pixelSize == PixelSize(width: 40, height: 30))
        try JPEGFixture.expectClose(image.pixels, to: JPEGFixture.photoReference())
    }

    @Test("stretching without the aspect ratio covers both sides")
    func stretched() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 40)
        options.preserveAspectRatio = false
        let image = try coder.decode(JPEGFixture.data("quad-444"), options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 40))
        expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 12)
    }

    @Test("quadrant colours hold at every reduction", arguments: [
        "quad-420", "quad-444", "quad-progressive", "gray", "cmyk-adobe-ycck", "cmyk-adobe", "cmyk-plain",
    ])
    func quadrantsReduced(name: String) throws {
        for side in [8, 16, 20, 24, 30, 40, 56] {
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(square: side)
            let image = try coder.decode(JPEGFixture.data(name), options: options)
            let expected = PixelSize(width: 64, height: 48).scaled(toFit: PixelSize(square: side))
            #expect(image.pixelSize == expected, "thumbnail \(side)")
            if name == "gray" {
                let levels: [UInt8] = [0x20, 0x60, 0xA0, 0xE0]
                expectPixels(image.pixels, quadrants(expected, levels.map { RGBAColor(red: $0, green: $0, blue: $0) }), tolerance: 12)
            } else {
                expectPixels(image.pixels, quadrants(expected, JPEGFixture.quadColours), tolerance: 16)
            }
        }
    }

    // MARK: Pixel limit

    @Test("without a reduction, an image over the limit is refused from its header")
    func overLimit() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 64 * 48 - 1
        let error = #expect(throws: WebImageError.self) { try coder.decode(JPEGFixture.data("quad-420"), options: options) }
        #expect(error?.code == .imageTooLarge)
        options.maxPixelCount = 64 * 48
        #expect(try coder.decode(JPEGFixture.data("quad-420"), options: options).pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test("with a thumbnail, a source over the limit is decoded reduced")
    func reducedUnderLimit() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1_000
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let image = try coder.decode(JPEGFixture.data("quad-420"), options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 12)

        // The photo, 76,800 pixels, under a limit of 4,800 (the largest source a reduced decode may read is 16
        // times the limit): 1/8 gives exactly 40 x 30.
        options.maxPixelCount = 4_800
        options.thumbnailPixelSize = PixelSize(width: 40, height: 30)
        #expect(try coder.decode(JPEGFixture.data("photo"), options: options).pixelSize == PixelSize(width: 40, height: 30))
    }

    @Test("the limit applies to the DCT-scaled intermediate, not only to the output")
    func limitOnIntermediate() throws {
        var options = ImageDecodeOptions()
        // 36 x 27 (972 pixels) needs the 5/8 factor: 40 x 30 = 1,200 pixels are decoded first.
        options.thumbnailPixelSize = PixelSize(width: 36, height: 27)
        options.maxPixelCount = 1_199
        let error = #expect(throws: WebImageError.self) { try coder.decode(JPEGFixture.data("quad-444"), options: options) }
        #expect(error?.code == .imageTooLarge)
        options.maxPixelCount = 1_200
        let image = try coder.decode(JPEGFixture.data("quad-444"), options: options)
        #expect(image.pixelSize == PixelSize(width: 36, height: 27))
    }

    @Test("a progressive file declaring 20000 x 20000 is refused before libjpeg buffers its coefficients, thumbnail or not")
    func progressiveBombIsRefused() throws {
        var data = JPEGFixture.data("quad-progressive")
        // Find the SOF2 segment and declare 20000 x 20000 (height, then width, after the precision byte): 400
        // megapixels, within what a reduced decode may read.
        let bytes = [UInt8](data)
        let sof = try #require((2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
        data = CorruptData.settingUInt32BigEndian(20000 << 16 | 20000, at: sof + 5, in: data)
        // Scaled by 1/8 the output would be 2500 x 2500, within the default limit; the coefficients (over a
        // gigabyte) would not be.
        let error = #expect(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 256)))
        }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("progressive") == true)

        let scan = try data.withBytes { bytes throws(WebImageError) in try JPEGMarkerScan(bytes, extent: .wholeImage) }
        #expect(scan.isProgressive && scan.needsWholeImageCoefficients)
        let baseline = try JPEGFixture.data("quad-420").withBytes { bytes throws(WebImageError) in try JPEGMarkerScan(bytes, extent: .wholeImage) }
        #expect(!baseline.needsWholeImageCoefficients && baseline.scanCount == 1)
    }
}
