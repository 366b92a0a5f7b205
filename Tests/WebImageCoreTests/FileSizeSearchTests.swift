#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCore

@Suite("File size search")
struct FileSizeSearchTests {
    /// A stand-in encoder whose files grow with quality and pixel count, as real ones do: a fixed header, then a
    /// share of a byte a pixel that rises with quality.
    static let header = 100

    static func byteCount(quality: Double, size: PixelSize) -> Int {
        header + Int((Double(size.pixelCount) * (0.05 + quality)).rounded(.down))
    }

    static func encode(_ frames: [ImageFrame], quality: Double) -> Data {
        Data(repeating: 0, count: byteCount(quality: quality, size: frames[0].pixels.size))
    }

    let frames: [ImageFrame]
    let size = PixelSize(width: 200, height: 100)

    init() throws {
        frames = [ImageFrame(pixels: try PixelBuffer(width: 200, height: 100, color: .white), duration: 0)]
    }

    func run(limit: Int) throws -> FileSizeSearch.Outcome {
        try FileSizeSearch(limit: limit, hasAlpha: false).run(frames) { frames, quality in
            Self.encode(frames, quality: quality)
        }
    }

    @Test("a file that fits at full quality costs one encode")
    func fitsAtOnce() throws {
        let outcome = try run(limit: Self.byteCount(quality: 1, size: size))
        #expect(outcome.fits)
        #expect(outcome.attempts == [.init(quality: 1, pixelSize: size, byteCount: outcome.data.count)])
    }

    @Test("a limit between the floor and full quality keeps the size and finds the highest quality that fits")
    func qualitySearch() throws {
        let floor = ImageEncodeOptions.fileSizeQualityFloor
        let limit = (Self.byteCount(quality: floor, size: size) + Self.byteCount(quality: 1, size: size)) / 2
        let outcome = try run(limit: limit)
        #expect(outcome.fits)
        #expect(outcome.data.count <= limit)
        #expect(outcome.attempts.allSatisfy { $0.pixelSize == size })
        let chosen = try #require(outcome.attempts.first { $0.byteCount == outcome.data.count })
        // One hundredth more quality would not fit.
        #expect(Self.byteCount(quality: chosen.quality + 0.01, size: size) > limit)
        #expect(outcome.attempts.count <= 9)
    }

    @Test("quality is searched down to the floor before the image is scaled, then the smaller size fits")
    func qualityBeforeScale() throws {
        let floor = ImageEncodeOptions.fileSizeQualityFloor
        let limit = Self.byteCount(quality: floor, size: size) / 3
        let outcome = try run(limit: limit)
        #expect(outcome.fits)
        #expect(outcome.data.count <= limit)
        let firstScaled = try #require(outcome.attempts.firstIndex { $0.pixelSize != size })
        let atFullSize = outcome.attempts[..<firstScaled]
        #expect(atFullSize.map(\.quality) == [1, floor])
        #expect(atFullSize.allSatisfy { $0.byteCount > limit })
        // Every size tried after is smaller than the one before, and the last holds the file returned.
        let scaled = outcome.attempts[firstScaled...]
        let sizes = scaled.map(\.pixelSize.pixelCount)
        #expect(sizes == sizes.sorted(by: >))
        let last = try #require(scaled.last)
        #expect(last.pixelSize.pixelCount < size.pixelCount)
        #expect(outcome.attempts.contains { $0.byteCount == outcome.data.count && $0.pixelSize == last.pixelSize })
    }

    @Test("an unreachable limit returns the smallest file made, from a 1 x 1 image, without throwing")
    func unreachable() throws {
        let outcome = try run(limit: Self.header / 2)
        #expect(!outcome.fits)
        let smallest = try #require(outcome.attempts.map(\.byteCount).min())
        #expect(outcome.data.count == smallest)
        #expect(outcome.attempts.last?.pixelSize == PixelSize(width: 1, height: 1))
        #expect(outcome.attempts.count <= 2 + FileSizeSearch.maxScaleSteps)
    }

    @Test("frames that share a buffer still share one after scaling")
    func sharedFrames() throws {
        let pixels = try PixelBuffer(width: 64, height: 64, color: .white)
        let other = try PixelBuffer(width: 64, height: 64, color: .black)
        let frames = [pixels, other, pixels].map { ImageFrame(pixels: $0, duration: 0.1) }
        let seen = Locked<[[ImageFrame]]>([])
        let limit = Self.byteCount(quality: ImageEncodeOptions.fileSizeQualityFloor, size: PixelSize(square: 64)) / 2
        let outcome = try FileSizeSearch(limit: limit, hasAlpha: false).run(frames) { frames, quality in
            seen.withLock { $0.append(frames) }
            return Self.encode(frames, quality: quality)
        }
        #expect(outcome.fits)
        let scaled = try #require(seen.withLock { $0.last })
        #expect(scaled[0].pixels.size.pixelCount < 64 * 64)
        #expect(scaled[0].pixels === scaled[2].pixels)
        #expect(scaled[0].pixels !== scaled[1].pixels)
        #expect(scaled.map(\.duration) == [0.1, 0.1, 0.1])
    }
}
