#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

@Suite("JPEG coder from many threads")
struct JPEGConcurrencyTests {
    @Test("concurrent decodes and encodes give the same results as serial ones")
    func concurrentDecodes() async throws {
        let coder = JPEGCoder()
        let inputs = ["photo", "quad-progressive", "orient-5", "cmyk-adobe-ycck", "gray"].map { JPEGFixture.data($0) }
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(width: 50, height: 50)
        let optionSets = [ImageDecodeOptions(), thumbnail]
        // Serial results first.
        var serial: [PixelBuffer] = []
        for data in inputs {
            for options in optionSets {
                serial.append(try coder.decode(data, options: options).pixels)
            }
        }
        let expected = serial
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<6 {
                        for (i, data) in inputs.enumerated() {
                            for (j, options) in optionSets.enumerated() {
                                let image = try coder.decode(data, options: options)
                                if image.pixels != expected[i * optionSets.count + j] { mismatches += 1 }
                            }
                        }
                        // Encoders run alongside the decoders.
                        let encoded = try coder.encode(coder.decode(inputs[(task + round) % inputs.count]), as: .jpeg, options: ImageEncodeOptions(quality: 0.8))
                        _ = try coder.decode(encoded)
                    }
                    return mismatches == 0
                }
            }
            var all: [Bool] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 }, "a concurrent decode differed from the serial one")
    }

    @Test("a private pool lends distinct handles, keeps at most its limit of compressors and no decompressor")
    func poolLimits() async throws {
        let pool = TurboJPEGHandlePool(maximumIdle: 2)
        let data = JPEGFixture.data("quad-444")
        let pixels = try JPEGCoder().decode(data).pixels
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    for _ in 0..<20 {
                        let size = try data.withBytes { bytes throws(WebImageError) in
                            try pool.withHandle(.decompressor) { handle throws(WebImageError) in
                                try handle.readHeader(bytes).size
                            }
                        }
                        #expect(size == PixelSize(width: 64, height: 48))
                        let encoded = try pool.withHandle(.compressor) { handle throws(WebImageError) in
                            try handle.compress(
                                TurboJPEGHandle.CompressionSource(
                                    base: pixels.baseAddress,
                                    size: pixels.size,
                                    bytesPerRow: pixels.bytesPerRow,
                                    isRGB: false
                                ),
                                quality: 90,
                                subsampling: .none
                            )
                        }
                        #expect(JPEGCoder().canDecode(encoded))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(pool.idleCount(.compressor) >= 1 && pool.idleCount(.compressor) <= 2)
        #expect(pool.idleCount(.decompressor) == 0)
    }
}
