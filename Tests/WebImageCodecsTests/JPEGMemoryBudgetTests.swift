#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

/// The decode memory budget for JPEG: libjpeg's coefficients, which the pixel limit does not see, counted from
/// the frame header before libjpeg allocates them.
@Suite("JPEG decode memory budget")
struct JPEGMemoryBudgetTests {
    @Test("decodes, thumbnails and progressive decodes check the budget", arguments: ["jpeg/photo-progressive.jpg", "jpeg/quad-420.jpg", "jpeg/cmyk-adobe.jpg"])
    func entryPoints(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: false)
    }

    @Test("libjpeg's coefficients: 2 bytes a sample, blocks padded to whole MCUs")
    func coefficients() throws {
        func header(_ size: PixelSize, _ sampling: [UInt8]) -> JPEGFrameHeader? {
            var payload: [UInt8] = [8, UInt8(size.height >> 8), UInt8(size.height & 0xFF), UInt8(size.width >> 8), UInt8(size.width & 0xFF), UInt8(sampling.count)]
            for (index, factors) in sampling.enumerated() { payload += [UInt8(index + 1), factors, 0] }
            return payload.withUnsafeBytes { JPEGFrameHeader(marker: 0xC2, payload: $0) }
        }
        let square = PixelSize(square: 10_000)
        // 4:2:0: luma 1250 x 1250 blocks, chroma 625 x 625 each.
        #expect(try #require(header(square, [0x22, 0x11, 0x11])).coefficientBytes(for: square) == 300_000_000)
        // CMYK at full resolution: 4 x 1250 x 1250 blocks.
        #expect(try #require(header(square, [0x11, 0x11, 0x11, 0x11])).coefficientBytes(for: square) == 800_000_000)
        // 17 x 17 in 4:2:0: luma 3 x 3 blocks padded to 4 x 4, chroma 2 x 2.
        let small = PixelSize(square: 17)
        #expect(try #require(header(small, [0x22, 0x11, 0x11])).coefficientBytes(for: small) == (16 + 4 + 4) * 128)
        #expect(header(small, [0x22, 0x11, 0x11])?.isProgressive == true)
        // A payload too short for its component count is not read.
        #expect([8, 0, 1, 0, 1, 3, 1, 0x11].withUnsafeBytes { JPEGFrameHeader(marker: 0xC0, payload: $0) } == nil)
    }

    @Test("libjpeg keeps coefficients by its own rule: progressive, or a first scan without every component")
    func multipleScans() throws {
        let progressive = try JPEGFixture.data("photo-progressive").withBytes { bytes throws(WebImageError) in
            try JPEGMarkerScan(bytes, extent: .header)
        }
        #expect(progressive.needsWholeImageCoefficients)
        #expect(progressive.frame?.components.count == 3)
        let baseline = try JPEGFixture.data("quad-420").withBytes { bytes throws(WebImageError) in
            try JPEGMarkerScan(bytes, extent: .header)
        }
        #expect(!baseline.needsWholeImageCoefficients)
        #expect(baseline.firstScanComponentCount == 3)
    }

    @Test("the one-shot decode fits its estimate exactly; a byte less is refused")
    func oneShotAtItsEstimate() throws {
        let data = JPEGFixture.data("photo-progressive")
        let plan = try Self.plan(data)
        let coder = JPEGCoder()
        _ = try coder.decode(data, options: ImageDecodeOptions(maxDecodeMemory: plan.memory.totalBytes))
        let error = #expect(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodeOptions(maxDecodeMemory: plan.memory.totalBytes - 1))
        }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message.contains("whole-image coefficients") == true)
    }

    @Test("partial images only when the session fits beside the one-shot decode")
    func partialsNeedRoomBesideTheFinalDecode() throws {
        let data = JPEGFixture.data("photo-progressive")
        let plan = try Self.plan(data)
        let progressive = JPEGIncrementalDecoder.Session.memory(of: plan).totalBytes
        #expect(progressive > plan.memory.totalBytes)
        let coder = JPEGCoder()
        let expected = try coder.decode(data)
        let without = MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: progressive - 1))
        #expect(!without.partial)
        #expect(without.final?.pixels == expected.pixels)
        let with = MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: progressive))
        #expect(with.partial)
        #expect(with.final?.pixels == expected.pixels)
    }

    /// The plan of a full decode of `data`, an upright JPEG of 320 x 240, without a budget.
    private static func plan(_ data: Data) throws -> JPEGDecodePlan {
        try data.withBytes { bytes throws(WebImageError) in
            let scan = try JPEGMarkerScan(bytes, extent: .wholeImage)
            return try JPEGDecodePlan(
                storedSize: PixelSize(width: 320, height: 240),
                orientation: .up,
                frame: scan.frame,
                needsWholeImageCoefficients: scan.needsWholeImageCoefficients,
                options: ImageDecodeOptions(maxDecodeMemory: 0)
            )
        }
    }
}
