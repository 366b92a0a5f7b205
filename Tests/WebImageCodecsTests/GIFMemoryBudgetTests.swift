#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

/// The decode memory budget for GIF: the output, an interlaced still's scratch buffer, an animation's canvas and
/// its copy for frames disposed to the previous canvas.
@Suite("GIF decode memory budget")
struct GIFMemoryBudgetTests {
    @Test("decodes, thumbnails and progressive decodes check the budget", arguments: ["gif/quad.gif", "gif/photo-interlaced.gif"])
    func stills(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: false)
    }

    @Test("animated decodes, thumbnails, progressive decodes and frame sources check the budget", arguments: ["gif/dispose-previous.gif", "gif/anim.gif"])
    func animations(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: true)
    }

    @Test("an animation holds its canvas, and a copy of it for frames disposed to the previous canvas")
    func canvasCopy() throws {
        let previous = try Fixtures.data("gif/dispose-previous.gif").withBytes { bytes throws(WebImageError) in try GIFStructure.scan(bytes) }
        let none = try Fixtures.data("gif/dispose-none.gif").withBytes { bytes throws(WebImageError) in try GIFStructure.scan(bytes) }
        #expect(previous.keepsCanvasForDisposal)
        #expect(!none.keepsCanvasForDisposal)
        let estimate = GIFMemoryEstimate.animation(previous, target: previous.canvasSize, keptFrames: 1)
        #expect(estimate.parts.first { $0.name == "canvas kept for disposal" }?.bytes == previous.canvasSize.pixelCount * 4)
    }

    @Test("frames that would not fit beside the one-shot decode stop the partial images")
    func partialsNeedRoomBesideTheFinalDecode() throws {
        let data = Fixtures.data("gif/anim.gif")
        let structure = try data.withBytes { bytes throws(WebImageError) in try GIFStructure.scan(bytes) }
        let oneShot = GIFMemoryEstimate.animation(structure, target: structure.canvasSize, keptFrames: structure.frameCount)
        let coder = GIFCoder()
        let expected = try coder.decode(data)
        let without = MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: oneShot.totalBytes))
        #expect(!without.partial)
        #expect(without.final?.frames.map(\.pixels) == expected.frames.map(\.pixels))
        #expect(MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions()).partial)
    }
}
