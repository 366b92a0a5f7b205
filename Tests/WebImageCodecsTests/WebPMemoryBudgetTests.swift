#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

/// The decode memory budget for WebP: libwebp's whole image for lossless data, its alpha planes, and the two
/// canvases of its animation decoder.
@Suite("WebP decode memory budget")
struct WebPMemoryBudgetTests {
    @Test("decodes, thumbnails and progressive decodes check the budget", arguments: ["webp/quad-lossless.webp", "webp/quad-alpha-lossy.webp", "webp/quad-lossy.webp"])
    func stills(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: false)
    }

    @Test("animated decodes, thumbnails, progressive decodes and frame sources check the budget", arguments: ["webp/anim-compose.webp", "webp/anim-img2webp.webp"])
    func animations(_ file: String) throws {
        try MemoryBudgetChecks.expectEveryEntryPointChecks(file, animated: true)
    }

    @Test("libwebp holds a whole 32-bit image for a lossless file, and far less for an opaque lossy one")
    func decoderMemory() {
        let size = PixelSize(square: 10_000)
        #expect(WebPMemoryEstimate.decoder(size: size, isLossless: true, hasAlpha: false).totalBytes >= 400_000_000)
        #expect(WebPMemoryEstimate.decoder(size: size, isLossless: false, hasAlpha: true).totalBytes >= 500_000_000)
        #expect(WebPMemoryEstimate.decoder(size: size, isLossless: false, hasAlpha: false).totalBytes < 2 << 20)
    }

    @Test("an animation counts both of libwebp's canvases and its decoder for the largest frame")
    func animation() throws {
        let data = Fixtures.data("webp/anim-compose.webp")
        let header = try data.withBytes { bytes throws(WebImageError) in
            try WebPAnimationHeader(bytes: bytes) { _, count in count }
        }
        let estimate = WebPMemoryEstimate.animation(header, target: header.canvasSize, keptFrames: 1, fileByteCount: data.count)
        #expect(estimate.parts.first { $0.name == "canvases" }?.bytes == header.canvasSize.pixelCount * 8)
        #expect(header.largestFrameDecoder.totalBytes > 0)
    }

    @Test("a still whose partial image does not fit beside its buffer is decoded whole at the end")
    func partialsNeedRoomForACopy() throws {
        let data = Fixtures.data("webp/photo.webp")
        let features = try data.withBytes { bytes throws(WebImageError) in try WebPFeatures(bytes: bytes) }
        let oneShot = WebPMemoryEstimate.still(features, target: features.size).totalBytes
        let coder = WebPCoder()
        let expected = try coder.decode(data)
        let without = MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: oneShot))
        #expect(!without.partial)
        #expect(without.final?.pixels == expected.pixels)
        let room = oneShot + features.size.pixelCount * 4
        #expect(MemoryBudgetChecks.feed(data, coder, options: ImageDecodeOptions(maxDecodeMemory: room)).partial)
    }
}
