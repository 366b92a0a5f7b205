#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("PNG coder: images over the pixel limit")
struct PNGLargeImageTests {
    let coder = PNGCoder()

    /// A file declaring 30000 x 30000 RGBA pixels in a few hundred bytes: a short IDAT, then IEND.
    static var bomb: Data {
        let rows = [UInt8](repeating: 0, count: 30_001 * 4 * 2)   // two rows' worth of zeros
        return Data(PNGCraft.signature + PNGCraft.ihdr(width: 30_000, height: 30_000)
            + PNGCraft.chunk("IDAT", PNGCraft.compress(rows)) + PNGCraft.chunk("IEND"))
    }

    @Test("a 30000 x 30000 declaration in a few hundred bytes: imageTooLarge without a thumbnail")
    func bombRefused() throws {
        #expect(Self.bomb.count < 1000)
        let info = try coder.info(for: Self.bomb)
        #expect(info.pixelSize == PixelSize(square: 30_000))
        #expect {
            try coder.decode(Self.bomb)
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
        #expect {
            try coder.decode(Self.bomb, options: ImageDecodeOptions(firstFrameOnly: true))
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
    }

    @Test("with a thumbnail the bomb is streamed and fails at the data's end with badImageData")
    func bombStreamedThenBad() {
        for options in [
            ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 100)),
            ImageDecodeOptions(scaleDownLimitBytes: 0),
        ] {
            #expect {
                try coder.decode(Self.bomb, options: options)
            } throws: { error in
                guard let error = error as? WebImageError else { return false }
                return error.code == .badImageData && error.message.hasPrefix("PNG: libpng")
            }
        }
    }

    @Test("a bomb declared interlaced is refused with imageTooLarge even with a thumbnail")
    func interlacedBomb() {
        let data = Data(PNGCraft.signature + PNGCraft.ihdr(width: 30_000, height: 30_000, interlaced: true)
            + PNGCraft.chunk("IDAT", PNGCraft.compress([0, 0, 0, 0, 0])) + PNGCraft.chunk("IEND"))
        #expect {
            try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 100)))
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }
    }

    /// A valid square 1-bit gray PNG of four blocks: black and white on top, white and black below. The first
    /// row of each half is stored plainly, the others with the Up filter (all zeros), so zlib packs the file
    /// close to its 1:1032 limit.
    static func checkerboard(side: Int) -> Data {
        let half = side / 16        // bytes of half a row at 1 bit a pixel
        let rowBytes = side / 8
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * side)
        for y in 0..<side {
            let start = y * (rowBytes + 1)
            if y == 0 || y == side / 2 {
                let blackFirst = y == 0
                for i in 0..<rowBytes where (i < half) != blackFirst {
                    raw[start + 1 + i] = 0xFF
                }
            } else {
                raw[start] = 2      // Up: the same as the row above
            }
        }
        return Data(PNGCraft.signature + PNGCraft.ihdr(width: UInt32(side), height: UInt32(side), bitDepth: 1, colorType: 0)
            + PNGCraft.chunk("IDAT", PNGCraft.compress(raw)) + PNGCraft.chunk("IEND"))
    }


    /// Whether the 144-megapixel decode runs: in optimised builds (about a second), or when
    /// `WEBIMAGE_LARGE_TESTS` is set. Unoptimised, the resampler's per-pixel work on 144 million pixels takes
    /// over a minute, so debug runs use the smaller case below, which takes the same path.
    static let runsLargeDecode: Bool = {
        #if DEBUG
        return ProcessInfo.processInfo.environment["WEBIMAGE_LARGE_TESTS"] != nil
        #else
        return true
        #endif
    }()

    @Test(
        "a valid 144-megapixel PNG streams into a 100 x 100 thumbnail at the default pixel limit",
        .enabled(if: runsLargeDecode, "needs an optimised build or WEBIMAGE_LARGE_TESTS=1")
    )
    func largeValidStreamed() throws {
        let data = Self.checkerboard(side: 12_000)
        #expect(data.count < 40 * 1024)
        try expectStreamedCheckerboard(data, options: ImageDecodeOptions())
    }

    @Test("a valid 4-megapixel PNG over a 1-megapixel limit streams into a 100 x 100 thumbnail")
    func smallerValidStreamed() throws {
        let data = Self.checkerboard(side: 2048)
        try expectStreamedCheckerboard(data, options: ImageDecodeOptions(maxPixelCount: 1_000_000))
    }

    /// The checkerboard is refused whole, and its thumbnail shows the four blocks.
    private func expectStreamedCheckerboard(_ data: Data, options: ImageDecodeOptions) throws {
        #expect {
            try coder.decode(data, options: options)
        } throws: { ($0 as? WebImageError)?.code == .imageTooLarge }

        var reduced = options
        reduced.thumbnailPixelSize = PixelSize(square: 100)
        let image = try coder.decode(data, options: reduced)
        #expect(image.pixelSize == PixelSize(square: 100))
        #expect(!image.hasAlpha)
        let black = RGBAColor.black
        let white = RGBAColor.white
        expectPixels(image.pixels, [
            ExpectedPixel(x: 10, y: 10, black), ExpectedPixel(x: 90, y: 10, white),
            ExpectedPixel(x: 10, y: 90, white), ExpectedPixel(x: 90, y: 90, black),
            ExpectedPixel(x: 45, y: 45, black), ExpectedPixel(x: 54, y: 45, white),
            ExpectedPixel(x: 0, y: 99, white), ExpectedPixel(x: 99, y: 0, white),
        ])
    }
}
