#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

@Suite("Encoding under a maximum file size")
struct MaxFileSizeEncodingTests {
    /// The lossy encoders, with the options that make them lossy.
    static let coders: [(String, any ImageCoding, ImageFormat)] = [
        ("jpeg", JPEGCoder(), .jpeg),
        ("webp", WebPCoder(), .webp),
    ]

    let photo: Image

    init() throws {
        photo = try JPEGCoder().decode(JPEGFixture.data("photo"))
    }

    func encode(_ coder: any ImageCoding, _ format: ImageFormat, quality: Double = 1, maxFileSize: Int? = nil) throws -> Data {
        try coder.encode(photo, as: format, options: ImageEncodeOptions(quality: quality, maxFileSize: maxFileSize))
    }

    @Test("a limit the full-quality file meets changes nothing", arguments: [0, 1])
    func generousLimit(coderIndex: Int) throws {
        let (_, coder, format) = Self.coders[coderIndex]
        let full = try encode(coder, format)
        #expect(try encode(coder, format, maxFileSize: full.count) == full)
        // 0 and below mean no limit, as in SDWebImage.
        #expect(try encode(coder, format, maxFileSize: 0) == full)
    }

    @Test("a limit above the floor's file is met by lowering the quality, at full size", arguments: [0, 1])
    func qualityFirst(coderIndex: Int) throws {
        let (_, coder, format) = Self.coders[coderIndex]
        let full = try encode(coder, format)
        let floor = try encode(coder, format, quality: ImageEncodeOptions.fileSizeQualityFloor)
        try #require(floor.count < full.count)
        let limit = (floor.count + full.count) / 2
        // The quality option is replaced by the search: a quality of 1 does not stop it.
        let data = try encode(coder, format, quality: 1, maxFileSize: limit)
        #expect(data.count <= limit)
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize == photo.pixelSize)
    }

    @Test("a limit below the floor's file is met by scaling the image down", arguments: [0, 1])
    func scaleAfterQuality(coderIndex: Int) throws {
        let (_, coder, format) = Self.coders[coderIndex]
        let floor = try encode(coder, format, quality: ImageEncodeOptions.fileSizeQualityFloor)
        let limit = floor.count / 3
        let data = try encode(coder, format, maxFileSize: limit)
        #expect(data.count <= limit)
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize.width < photo.pixelSize.width)
        #expect(decoded.pixelSize.height < photo.pixelSize.height)
        // The aspect ratio is kept, to the pixel.
        let expectedHeight = Double(decoded.pixelSize.width) * Double(photo.pixelSize.height) / Double(photo.pixelSize.width)
        #expect(abs(Double(decoded.pixelSize.height) - expectedHeight) <= 1.5)
    }

    @Test("an unreachable limit gives the smallest file made, a decodable tiny image, and does not throw", arguments: [0, 1])
    func unreachable(coderIndex: Int) throws {
        let (_, coder, format) = Self.coders[coderIndex]
        let data = try encode(coder, format, maxFileSize: 1)
        #expect(data.count > 1)
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize.width < photo.pixelSize.width / 8)
        #expect(decoded.pixelSize.height < photo.pixelSize.height / 8)
        // The search went down to one pixel: no file it returns is larger than that one.
        let onePixel = try decoded.pixels.resampled(to: PixelSize(width: 1, height: 1), hasAlpha: false)
        let floorOfOnePixel = try coder.encode(
            Image(pixels: onePixel, hasAlpha: false),
            as: format,
            options: ImageEncodeOptions(quality: ImageEncodeOptions.fileSizeQualityFloor)
        )
        #expect(data.count <= floorOfOnePixel.count)
    }

    @Test("lossless WebP ignores the limit")
    func losslessIgnores() throws {
        let coder = WebPCoder()
        let lossless = try coder.encode(photo, as: .webp, options: ImageEncodeOptions(lossless: true))
        let limited = try coder.encode(photo, as: .webp, options: ImageEncodeOptions(lossless: true, maxFileSize: lossless.count / 4))
        #expect(limited == lossless)
    }
}
