#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// A still fixture and what it must decode to.
struct PNGStillCase: Sendable, CustomTestStringConvertible {
    var file: String
    var colors: [RGBAColor]
    var hasAlpha: Bool

    var testDescription: String { file }
}

/// rgba(255,0,0,0.5) as ImageMagick stores it: alpha 127 (0x7F7F in 16 bits).
private let halfRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 127)
private func gray(_ value: UInt8) -> RGBAColor { RGBAColor(red: value, green: value, blue: value) }
private let quadColors: [RGBAColor] = [.red, .green, .blue, .white]
private let quadAlphaColors: [RGBAColor] = [.red, .green, .blue, .clear]
private let grayColors = [gray(85), gray(170), gray(0), gray(255)]

@Suite("PNG coder: still images")
struct PNGCoderTests {
    let coder = PNGCoder()

    static let stills: [PNGStillCase] = [
        PNGStillCase(file: "gray1.png", colors: [gray(0), gray(255), gray(0), gray(255)], hasAlpha: false),
        PNGStillCase(file: "gray2.png", colors: grayColors, hasAlpha: false),
        PNGStillCase(file: "gray4.png", colors: grayColors, hasAlpha: false),
        PNGStillCase(file: "gray8.png", colors: grayColors, hasAlpha: false),
        PNGStillCase(file: "gray16.png", colors: grayColors, hasAlpha: false),
        PNGStillCase(file: "gray-alpha8.png", colors: [gray(85), gray(170), gray(0), .clear], hasAlpha: true),
        PNGStillCase(file: "gray-alpha16.png", colors: [gray(85), gray(170), gray(0), .clear], hasAlpha: true),
        PNGStillCase(file: "rgb8.png", colors: quadColors, hasAlpha: false),
        PNGStillCase(file: "rgb16.png", colors: quadColors, hasAlpha: false),
        PNGStillCase(file: "rgba8.png", colors: [.red, .green, .blue, halfRed], hasAlpha: true),
        PNGStillCase(file: "rgba16.png", colors: [.red, .green, .blue, halfRed], hasAlpha: true),
        PNGStillCase(file: "rgba8-interlaced.png", colors: [.red, .green, .blue, halfRed], hasAlpha: true),
        PNGStillCase(file: "palette1.png", colors: [.red, .red, .blue, .blue], hasAlpha: false),
        PNGStillCase(file: "palette2.png", colors: quadColors, hasAlpha: false),
        PNGStillCase(file: "palette4.png", colors: quadColors, hasAlpha: false),
        PNGStillCase(file: "palette8.png", colors: quadColors, hasAlpha: false),
        PNGStillCase(file: "palette1-trns.png", colors: [.red, .red, .clear, .clear], hasAlpha: true),
        PNGStillCase(file: "palette2-trns.png", colors: quadAlphaColors, hasAlpha: true),
        PNGStillCase(file: "palette4-trns.png", colors: quadAlphaColors, hasAlpha: true),
        PNGStillCase(file: "palette8-trns.png", colors: quadAlphaColors, hasAlpha: true),
    ]

    @Test("every colour type and bit depth decodes to the expected colours", arguments: stills)
    func decodesStill(_ still: PNGStillCase) throws {
        let data = Fixtures.data("png/\(still.file)")
        let image = try coder.decode(data)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.format == .png)
        #expect(image.hasAlpha == still.hasAlpha)
        #expect(image.frames.count == 1)
        #expect(image.scale == 1)
        expectPixels(image.pixels, quadrants(image.pixelSize, still.colors))
        // The block edges: the last pixel of the top-left block and the first of the bottom-right one.
        expectPixels(image.pixels, [
            ExpectedPixel(x: 31, y: 23, still.colors[0]),
            ExpectedPixel(x: 32, y: 24, still.colors[3]),
            ExpectedPixel(x: 63, y: 47, still.colors[3]),
        ])

        let info = try coder.info(for: data)
        #expect(info.pixelSize == image.pixelSize)
        #expect(info.hasAlpha == still.hasAlpha)
        #expect(info.frameCount == 1)
        #expect(info.format == .png)
    }

    @Test("16-bit colours without gamma information decode as sRGB, each v * 257 to v exactly")
    func sixteenBitIsSRGB() throws {
        let image = try coder.decode(Fixtures.data("png/rgb16-no-gamma.png"))
        expectPixels(image.pixels, quadrants(image.pixelSize, [
            RGBAColor(red: 128, green: 64, blue: 192),
            RGBAColor(red: 32, green: 160, blue: 96),
            RGBAColor(red: 255, green: 128, blue: 0),
            RGBAColor(red: 16, green: 16, blue: 16),
        ]))
        // Gray 85 * 257 in a 16-bit gray file: 85, not the 156 a linear reading would give.
        let gray16 = try coder.decode(Fixtures.data("png/gray16.png"))
        #expect(gray16.pixels[x: 0, y: 0] == gray(85))
    }

    @Test("an interlaced image decodes to the same pixels as the same image stored plainly")
    func interlacedEqualsPlain() throws {
        let plain = try coder.decode(Fixtures.data("png/photo-crop.png"))
        let interlaced = try coder.decode(Fixtures.data("png/photo-crop-interlaced.png"))
        #expect(plain.pixelSize == PixelSize(width: 97, height: 71))
        #expect(plain.pixels == interlaced.pixels)
        let quad = try coder.decode(Fixtures.data("png/rgba8.png"))
        let quadInterlaced = try coder.decode(Fixtures.data("png/rgba8-interlaced.png"))
        #expect(quad.pixels == quadInterlaced.pixels)
    }

    @Test("canDecode looks at the signature; canEncode says PNG only")
    func capabilities() {
        #expect(coder.canDecode(Fixtures.data("png/rgb8.png")))
        #expect(coder.canDecode(Fixtures.data("png/apng-blend.png")))
        #expect(!coder.canDecode(Data()))
        #expect(!coder.canDecode(Data("GIF89a".utf8)))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(coder.canEncode(to: .png))
        #expect(!coder.canEncode(to: .jpeg))
        #expect(!coder.canEncode(to: .gif))
    }

    @Test("the scale factor is carried, the pixels are not changed")
    func scaleFactor() throws {
        let image = try coder.decode(Fixtures.data("png/rgb8.png"), options: ImageDecodeOptions(scaleFactor: 2))
        #expect(image.scale == 2)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
    }
}
