#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

@Suite("JPEG EXIF orientation")
struct JPEGOrientationTests {
    let coder = JPEGCoder()

    static let orientations: [(name: String, orientation: ImageOrientation)] = [
        ("orient-1", .up), ("orient-2", .upMirrored), ("orient-3", .down), ("orient-4", .downMirrored),
        ("orient-5", .leftMirrored), ("orient-6", .right), ("orient-7", .rightMirrored), ("orient-8", .left),
        ("orient-6-mm", .right),
    ]

    @Test("every orientation decodes upright to the quadrant image", arguments: JPEGOrientationTests.orientations)
    func upright(fixture: (name: String, orientation: ImageOrientation)) throws {
        let image = try coder.decode(JPEGFixture.data(fixture.name))
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.orientation == .up)
        expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 10)
        // Corners too: a mirror would swap them even where the quadrant centres agree.
        expectPixels(
            image.pixels,
            [ExpectedPixel(x: 1, y: 1, .red), ExpectedPixel(x: 62, y: 1, .green), ExpectedPixel(x: 1, y: 46, .blue)],
            tolerance: 12
        )
    }

    @Test("keepsOriginalOrientation keeps the stored pixels and reports the tag", arguments: JPEGOrientationTests.orientations)
    func keepsOriginal(fixture: (name: String, orientation: ImageOrientation)) throws {
        var options = ImageDecodeOptions()
        options.keepsOriginalOrientation = true
        let image = try coder.decode(JPEGFixture.data(fixture.name), options: options)
        #expect(image.orientation == fixture.orientation)
        #expect(image.pixelSize == fixture.orientation.uprightSize(of: PixelSize(width: 64, height: 48)))
        // Turning the kept pixels by the reported orientation gives the upright image.
        let upright = try image.pixels.uprighted(for: image.orientation)
        expectPixels(upright, quadrants(upright.size, JPEGFixture.quadColours), tolerance: 10)
    }

    @Test("a thumbnail fits the upright image, for every orientation", arguments: JPEGOrientationTests.orientations)
    func thumbnailOfTurnedImage(fixture: (name: String, orientation: ImageOrientation)) throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let image = try coder.decode(JPEGFixture.data(fixture.name), options: options)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 12)

        options.keepsOriginalOrientation = true
        let kept = try coder.decode(JPEGFixture.data(fixture.name), options: options)
        #expect(kept.pixelSize == fixture.orientation.uprightSize(of: PixelSize(width: 32, height: 24)))
        let upright = try kept.pixels.uprighted(for: kept.orientation)
        expectPixels(upright, quadrants(upright.size, JPEGFixture.quadColours), tolerance: 12)
    }

    @Test("the plan decodes turned images at 1/2 and turns after scaling")
    func planForTurnedThumbnail() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let plan = try JPEGDecodePlan(storedSize: PixelSize(width: 48, height: 64), orientation: .right, options: options)
        #expect(plan.outputSize == PixelSize(width: 24, height: 32))
        #expect(plan.factor == JPEGScalingFactor(numerator: 1, denominator: 2))
        #expect(plan.scaledSize == PixelSize(width: 24, height: 32))
        #expect(plan.finalSize == PixelSize(width: 32, height: 24))
        #expect(plan.turnsUpright && !plan.resamples && !plan.decodesIntoFinalBuffer)
    }

    // MARK: The EXIF reader on crafted blocks

    /// A TIFF block with IFD0 holding `entries` (tag, type, count, 4 value bytes as written).
    static func tiff(bigEndian: Bool, entries: [(UInt16, UInt16, UInt32, [UInt8])], declaredCount: UInt16? = nil) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let be = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? be : be.reversed()
        }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += u16(42) + u32(8) + u16(declaredCount ?? UInt16(entries.count))
        for (tag, type, count, value) in entries {
            bytes += u16(tag) + u16(type) + u32(count) + value
        }
        return bytes + u32(0)
    }

    static func read(_ bytes: [UInt8]) -> ImageOrientation? {
        bytes.withUnsafeBytes { JPEGExifOrientation.orientation(inTIFF: $0) }
    }

    @Test("SHORT and LONG values in both byte orders")
    func exifValues() {
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, [6, 0, 0, 0])])) == .right)
        #expect(Self.read(Self.tiff(bigEndian: true, entries: [(0x0112, 3, 1, [0, 8, 0, 0])])) == .left)
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 4, 1, [3, 0, 0, 0])])) == .down)
        #expect(Self.read(Self.tiff(bigEndian: true, entries: [(0x0112, 4, 1, [0, 0, 0, 5])])) == .leftMirrored)
        // Other entries first.
        let rich = Self.tiff(bigEndian: true, entries: [(0x010F, 2, 4, [0x41, 0x42, 0x43, 0]), (0x0112, 3, 1, [0, 7, 0, 0])])
        #expect(Self.read(rich) == .rightMirrored)
        // Out of range reads as up; a value of the wrong byte order is out of range.
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, [9, 0, 0, 0])])) == .up)
        #expect(Self.read(Self.tiff(bigEndian: true, entries: [(0x0112, 3, 1, [6, 0, 0, 0])])) == .up)
    }

    @Test("damaged blocks give nil without reading out of bounds")
    func exifDamage() {
        let good = Self.tiff(bigEndian: false, entries: [(0x0100, 3, 1, [1, 0, 0, 0]), (0x0112, 3, 1, [6, 0, 0, 0])])
        #expect(Self.read(good) == .right)
        // Every truncation: nil, or the right answer once the entry is whole.
        for cut in 0..<good.count {
            let result = Self.read(Array(good.prefix(cut)))
            #expect(result == nil || (result == .right && cut >= 8 + 2 + 24), "cut at \(cut)")
        }
        // A bad byte-order mark, a bad magic number, an IFD offset past the end.
        #expect(Self.read([0x49, 0x4D] + good.dropFirst(2)) == nil)
        var badMagic = good
        badMagic[2] = 43
        #expect(Self.read(badMagic) == nil)
        var farIFD = good
        farIFD[4] = 0xFF
        farIFD[7] = 0x7F
        #expect(Self.read(farIFD) == nil)
        // An entry count far above the entries present is capped by the bytes.
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0100, 3, 1, [0, 0, 0, 0])], declaredCount: 0xFFFF)) == nil)
        // An orientation of a type that cannot hold it.
        #expect(Self.read(Self.tiff(bigEndian: false, entries: [(0x0112, 2, 1, [6, 0, 0, 0])])) == nil)
        #expect(Self.read([]) == nil)
    }

    @Test("a damaged EXIF block in a file decodes as up")
    func damagedExifInFile() throws {
        var bytes = [UInt8](JPEGFixture.data("orient-6"))
        // The fixture's TIFF starts after FF D8, FF E1, the length and "Exif\0\0": set a bad byte-order mark.
        #expect(Array(bytes[6...11]) == [0x45, 0x78, 0x69, 0x66, 0, 0])
        bytes[12] = 0x00
        let image = try coder.decode(Data(bytes))
        #expect(image.orientation == .up)
        #expect(image.pixelSize == PixelSize(width: 48, height: 64))
    }
}
