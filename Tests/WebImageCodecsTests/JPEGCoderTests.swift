#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

@Suite("JPEG decoding")
struct JPEGCoderTests {
    let coder = JPEGCoder()

    @Test("canDecode and canEncode")
    func capabilities() {
        #expect(coder.canDecode(JPEGFixture.data("quad-420")))
        #expect(!coder.canDecode(Data()))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!coder.canDecode(Data([0xFF, 0xD8])))
        #expect(coder.canEncode(to: .jpeg))
        #expect(!coder.canEncode(to: .png))
        #expect(!coder.canEncode(to: .webp))
    }

    @Test(
        "colour quadrants of every RGB and CMYK flavour",
        arguments: [
            "quad-420", "quad-444", "quad-progressive", "cmyk-adobe-ycck", "cmyk-adobe", "cmyk-plain",
        ]
    )
    func quadrantColours(name: String) throws {
        let image = try coder.decode(JPEGFixture.data(name))
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.format == .jpeg)
        #expect(!image.hasAlpha)
        #expect(image.orientation == .up)
        #expect(image.frames.count == 1)
        #expect(image.scale == 1)
        expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 10)
        // Every pixel is opaque, including those of CMYK sources.
        #expect(image.pixels.isOpaque)
    }

    @Test("CMYK without an Adobe segment is read as plain ink amounts, exactly")
    func plainCMYKIsExact() throws {
        // The plain and Adobe fixtures store complementary values of flat blocks exactly, so both decode exactly.
        for name in ["cmyk-plain", "cmyk-adobe"] {
            let image = try coder.decode(JPEGFixture.data(name))
            expectPixels(image.pixels, quadrants(image.pixelSize, JPEGFixture.quadColours), tolerance: 0)
            expectPixels(image.pixels, [ExpectedPixel(x: 0, y: 0, .red), ExpectedPixel(x: 63, y: 47, .white)])
        }
    }

    @Test("greyscale decodes to equal R, G and B")
    func greyscale() throws {
        let image = try coder.decode(JPEGFixture.data("gray"))
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        let levels: [UInt8] = [0x20, 0x60, 0xA0, 0xE0]
        let colours = levels.map { RGBAColor(red: $0, green: $0, blue: $0) }
        expectPixels(image.pixels, quadrants(image.pixelSize, colours), tolerance: 4)
        let pixel = image.pixels[x: 40, y: 30]
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
    }

    @Test("the photo decodes at full size to the colours of its PNG source")
    func photo() throws {
        let image = try coder.decode(JPEGFixture.data("photo"))
        #expect(image.pixelSize == PixelSize(width: 320, height: 240))
        // Averaged over 8 x 8 blocks, the decode matches the source reduced the same way by ImageMagick.
        let reduced = try image.pixels.resampled(to: PixelSize(width: 40, height: 30), hasAlpha: false)
        try JPEGFixture.expectClose(reduced, to: JPEGFixture.photoReference())
    }

    @Test("the scale factor is reported, not applied to pixels")
    func scaleFactor() throws {
        let image = try coder.decode(JPEGFixture.data("quad-444"), options: ImageDecodeOptions(scaleFactor: 2))
        #expect(image.scale == 2)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test("info reads size and orientation from the header")
    func info() throws {
        let quad = try coder.info(for: JPEGFixture.data("quad-420"))
        #expect(quad == ImageInfo(format: .jpeg, pixelSize: PixelSize(width: 64, height: 48), frameCount: 1, hasAlpha: false))

        let turned = try coder.info(for: JPEGFixture.data("orient-6"))
        #expect(turned.pixelSize == PixelSize(width: 48, height: 64))
        #expect(turned.orientation == .right)
        #expect(turned.uprightSize == PixelSize(width: 64, height: 48))
        #expect(turned.frameCount == 1 && !turned.hasAlpha)

        let bigEndian = try coder.info(for: JPEGFixture.data("orient-6-mm"))
        #expect(bigEndian.orientation == .right)

        // The header is enough: data cut after it still gives the information.
        let photo = JPEGFixture.data("photo")
        let cut = try coder.info(for: photo.prefix(photo.count / 2))
        #expect(cut.pixelSize == PixelSize(width: 320, height: 240))
    }
}

/// The committed JPEG fixtures and what they hold.
enum JPEGFixture {
    /// Top-left red, top-right green, bottom-left blue, bottom-right white.
    static let quadColours: [RGBAColor] = [.red, .green, .blue, .white]

    /// The bytes of `Tests/Fixtures/jpeg/<name>.jpg`.
    static func data(_ name: String) -> Data {
        Fixtures.data("jpeg/\(name).jpg")
    }

    /// The offset of the first segment with `marker` (the `FF` byte), walking segments from the start.
    static func offset(of marker: UInt8, in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            if bytes[i + 1] == marker { return i }
            if bytes[i + 1] == 0xDA { return nil }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return nil
    }

    /// The photo's PNG source reduced to 40 x 30 by area averaging (a binary PPM written by the fixture script).
    static func photoReference() throws -> PixelBuffer {
        let data = Fixtures.data("jpeg/photo-40x30.ppm")
        let header = Array("P6\n40 30\n255\n".utf8)
        #expect(Array(data.prefix(header.count)) == header)
        let rgb = [UInt8](data.dropFirst(header.count))
        try #require(rgb.count == 40 * 30 * 3)
        return try PixelBuffer(width: 40, height: 30) { memory in
            for i in 0..<(40 * 30) {
                memory[i * 4] = rgb[i * 3]
                memory[i * 4 + 1] = rgb[i * 3 + 1]
                memory[i * 4 + 2] = rgb[i * 3 + 2]
                memory[i * 4 + 3] = 255
            }
        }
    }

    /// Expects two images of one size to differ by at most `mean` on average per channel and `most` anywhere.
    static func expectClose(
        _ actual: PixelBuffer,
        to expected: PixelBuffer,
        mean: Double = 3,
        most: Int = 24,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try #require(actual.size == expected.size, sourceLocation: sourceLocation)
        var total = 0
        var largest = 0
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual[x: x, y: y]
                let e = expected[x: x, y: y]
                for (p, q) in [(a.red, e.red), (a.green, e.green), (a.blue, e.blue), (a.alpha, e.alpha)] {
                    let d = abs(Int(p) - Int(q))
                    total += d
                    largest = max(largest, d)
                }
            }
        }
        let average = Double(total) / Double(actual.width * actual.height * 4)
        #expect(average <= mean, "mean difference \(average)", sourceLocation: sourceLocation)
        #expect(largest <= most, "largest difference \(largest)", sourceLocation: sourceLocation)
    }

    /// An opaque RGBA image of the quadrant colours, 64 x 48, or with `bottomRight` in the bottom-right quadrant.
    static func quadImage(bottomRight: RGBAColor = .white, hasAlpha: Bool = false) throws -> Image {
        let colours: [RGBAColor] = [.red, .green, .blue, bottomRight]
        let pixels = try PixelBuffer(width: 64, height: 48) { memory in
            for y in 0..<48 {
                for x in 0..<64 {
                    let c = colours[(y < 24 ? 0 : 2) + (x < 32 ? 0 : 1)]
                    let p = (y * 64 + x) * 4
                    memory[p] = c.red
                    memory[p + 1] = c.green
                    memory[p + 2] = c.blue
                    memory[p + 3] = c.alpha
                }
            }
        }
        return Image(pixels: pixels, hasAlpha: hasAlpha)
    }
}
