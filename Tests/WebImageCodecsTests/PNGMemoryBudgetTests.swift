#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

/// The decode memory budget for PNG and APNG: the output, an interlaced image's scratch buffer, an animation's
/// canvas and its copy for frames disposed to the previous state.
@Suite("PNG decode memory budget")
struct PNGMemoryBudgetTests {
    @Test("decodes, thumbnails and progressive decodes check the budget", arguments: ["png/rgb8.png", "png/rgba8-interlaced.png"])
    func stills(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: false)
    }

    @Test("APNG decodes, thumbnails, progressive decodes and frame sources check the budget", arguments: ["png/apng-dispose.png", "png/apng-blend.png"])
    func animations(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: true)
    }

    @Test("a thumbnail streams, whatever the source's size; an interlaced one needs a full-size scratch buffer")
    func thumbnailsStream() {
        let source = PixelSize(square: 10_000)
        let thumbnail = PixelSize(square: 256)
        #expect(PNGMemoryEstimate.still(size: source, target: thumbnail, isInterlaced: false).totalBytes < 2 << 20)
        #expect(PNGMemoryEstimate.still(size: source, target: thumbnail, isInterlaced: true).totalBytes > 400_000_000)
        #expect(PNGMemoryEstimate.still(size: source, target: source, isInterlaced: false).totalBytes > 400_000_000)
    }

    @Test("an APNG holds its canvas, and a copy of it only when a frame after the first is disposed to previous")
    func canvasCopy() throws {
        func animation(_ file: String) throws -> APNGAnimation {
            let parsed = try Fixtures.data(file).withBytes { bytes throws(WebImageError) in
                try APNGAnimation(parsing: bytes, header: PNGHeader(parsing: bytes))
            }
            return try #require(parsed)
        }
        let dispose = try animation("png/apng-dispose.png")
        let first = try animation("png/apng-first-previous.png")
        func copy(_ animation: APNGAnimation) -> Int? {
            PNGMemoryEstimate.animation(animation, target: animation.canvasSize, keptFrames: 1).parts
                .first { $0.name == "canvas kept for disposal" }?.bytes
        }
        #expect(dispose.frames.dropFirst().contains { $0.disposal == .previous } == (copy(dispose) != nil))
        #expect(first.frames.dropFirst().contains { $0.disposal == .previous } == (copy(first) != nil))
    }

    @Test("partial images only when the canvas fits beside the one-shot decode")
    func partialsNeedRoomBesideTheFinalDecode() throws {
        let data = Fixtures.data("png/rgb8.png")
        let size = PixelSize(width: 64, height: 48)
        var progressive = PNGMemoryEstimate.progressiveSession(size: size, target: size)
        progressive.add(PNGMemoryEstimate.still(size: size, target: size, isInterlaced: false))
        let coder = PNGCoder()
        let expected = try coder.decode(data)
        let without = MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: progressive.totalBytes - 1))
        #expect(!without.partial)
        #expect(without.final?.pixels == expected.pixels)
        #expect(MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: progressive.totalBytes)).partial)
    }
}
