#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import WebImageCodecs
import WebImageTestSupport

@Suite("JPEG encoding")
struct JPEGEncodingTests {
    let coder = JPEGCoder()

    /// The sampling factor byte of each component in the frame header (0x11 = full resolution, 0x22 = halved).
    static func samplingFactors(_ data: Data) throws -> [UInt8] {
        let sof = try #require(JPEGFixture.offset(of: 0xC0, in: data))
        let bytes = [UInt8](data)
        let components = Int(bytes[sof + 9])
        return (0..<components).map { bytes[sof + 10 + $0 * 3 + 1] }
    }

    @Test("quality maps 0...1 to libjpeg's 1...100")
    func qualityMapping() {
        #expect(JPEGCoder.libjpegQuality(0) == 1)
        #expect(JPEGCoder.libjpegQuality(0.004) == 1)
        #expect(JPEGCoder.libjpegQuality(0.5) == 50)
        #expect(JPEGCoder.libjpegQuality(0.9) == 90)
        #expect(JPEGCoder.libjpegQuality(1) == 100)
        #expect(JPEGCoder.libjpegQuality(7) == 100)
        #expect(JPEGCoder.libjpegQuality(-1) == 1)
        #expect(JPEGCoder.libjpegQuality(.nan) == 100)
    }

    @Test("decode, encode, decode keeps the quadrants", arguments: ["quad-420", "quad-444", "orient-7", "cmyk-adobe"])
    func roundTrip(name: String) throws {
        let original = try coder.decode(JPEGFixture.data(name))
        let data = try coder.encode(original, as: .jpeg, options: ImageEncodeOptions())
        #expect(ImageFormat.detect(data) == .jpeg)
        let again = try coder.decode(data)
        #expect(again.pixelSize == original.pixelSize)
        #expect(!again.hasAlpha)
        expectPixels(again.pixels, quadrants(again.pixelSize, JPEGFixture.quadColours), tolerance: 10)
    }

    @Test("the photo survives a round trip at several qualities; lower quality is smaller")
    func photoQualities() throws {
        let photo = try coder.decode(JPEGFixture.data("photo"))
        var sizes: [Int] = []
        for quality in [1.0, 0.9, 0.6, 0.2] {
            let data = try coder.encode(photo, as: .jpeg, options: ImageEncodeOptions(quality: quality))
            sizes.append(data.count)
            let again = try coder.decode(data)
            #expect(again.pixelSize == photo.pixelSize)
            let reduced = try again.pixels.resampled(to: PixelSize(width: 40, height: 30), hasAlpha: false)
            try JPEGFixture.expectClose(reduced, to: JPEGFixture.photoReference(), mean: quality >= 0.6 ? 3 : 5, most: 40)
        }
        #expect(sizes == sizes.sorted(by: >), "sizes \(sizes)")
    }

    @Test("4:4:4 at quality 0.9 and above, 4:2:0 below")
    func subsampling() throws {
        let image = try JPEGFixture.quadImage()
        #expect(try Self.samplingFactors(coder.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 1))) == [0x11, 0x11, 0x11])
        #expect(try Self.samplingFactors(coder.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9))) == [0x11, 0x11, 0x11])
        #expect(try Self.samplingFactors(coder.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.89))) == [0x22, 0x11, 0x11])
        #expect(try Self.samplingFactors(coder.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0))) == [0x22, 0x11, 0x11])
    }

    @Test("transparent pixels are laid over the background colour")
    func flattening() throws {
        let image = try JPEGFixture.quadImage(bottomRight: .clear, hasAlpha: true)
        for background in [RGBAColor.black, .white, RGBAColor(red: 255, green: 255, blue: 0)] {
            let data = try coder.encode(image, as: .jpeg, options: ImageEncodeOptions(backgroundColor: background))
            let decoded = try coder.decode(data)
            #expect(!decoded.hasAlpha)
            expectPixels(decoded.pixels, quadrants(decoded.pixelSize, [.red, .green, .blue, background]), tolerance: 10)
        }
        // Half-transparent red over black is half-bright red.
        let semi = try JPEGFixture.quadImage(bottomRight: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128), hasAlpha: true)
        let data = try coder.encode(semi, as: .jpeg, options: ImageEncodeOptions(backgroundColor: .black))
        let decoded = try coder.decode(data)
        expectPixels(decoded.pixels, [ExpectedPixel(x: 48, y: 36, RGBAColor(red: 128, green: 0, blue: 0))], tolerance: 10)
    }

    @Test("maxPixelSize scales the image down before encoding")
    func maxPixelSize() throws {
        let image = try coder.decode(JPEGFixture.data("quad-444"))
        let data = try coder.encode(image, as: .jpeg, options: ImageEncodeOptions(maxPixelSize: PixelSize(width: 32, height: 32)))
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(decoded.pixels, quadrants(decoded.pixelSize, JPEGFixture.quadColours), tolerance: 12)
        #expect(try coder.info(for: data).pixelSize == PixelSize(width: 32, height: 24))
    }

    @Test("an animation is written as its first frame")
    func firstFrame() throws {
        let red = try PixelBuffer(width: 32, height: 24, color: .red)
        let green = try PixelBuffer(width: 32, height: 24, color: .green)
        let animation = Image(
            frames: [ImageFrame(pixels: red, duration: 0.1), ImageFrame(pixels: green, duration: 0.1)],
            hasAlpha: false
        )
        let decoded = try coder.decode(coder.encode(animation, as: .jpeg, options: ImageEncodeOptions()))
        #expect(decoded.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(decoded.pixels, [ExpectedPixel(x: 16, y: 12, .red)], tolerance: 8)
    }

    @Test("a pixel buffer with padded rows is read with its row pitch")
    func paddedRows() throws {
        // 5 pixels a row and 12 bytes of padding filled with grey: a wrong pitch shifts rows and shows the grey.
        let width = 5
        let height = 16
        let pitch = width * 4 + 12
        let memory = UnsafeMutableRawPointer.allocate(byteCount: pitch * height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0x80, count: pitch * height)
        for y in 0..<height {
            let c: RGBAColor = y < 8 ? .blue : .yellow
            for x in 0..<width {
                let p = memory.advanced(by: y * pitch + x * 4).assumingMemoryBound(to: UInt8.self)
                p[0] = c.red
                p[1] = c.green
                p[2] = c.blue
                p[3] = 255
            }
        }
        let padded = PixelBuffer(adopting: memory, width: width, height: height, bytesPerRow: pitch) { $0.deallocate() }
        for hasAlpha in [false, true] {
            let data = try coder.encode(Image(pixels: padded, hasAlpha: hasAlpha), as: .jpeg, options: ImageEncodeOptions())
            let decoded = try coder.decode(data)
            #expect(decoded.pixelSize == PixelSize(width: width, height: height))
            expectPixels(
                decoded.pixels,
                [ExpectedPixel(x: 2, y: 2, .blue), ExpectedPixel(x: 4, y: 5, .blue), ExpectedPixel(x: 2, y: 13, .yellow),
                 ExpectedPixel(x: 4, y: 10, .yellow)],
                tolerance: 12
            )
        }
    }

    @Test("other formats are refused")
    func otherFormats() throws {
        let image = try JPEGFixture.quadImage()
        for format in [ImageFormat.png, .webp, .gif, .undefined] {
            let error = #expect(throws: WebImageError.self) { try coder.encode(image, as: format, options: ImageEncodeOptions()) }
            #expect(error?.code == .unsupportedFormat)
        }
    }
}
