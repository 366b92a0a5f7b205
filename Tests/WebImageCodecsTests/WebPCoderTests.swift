#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import WebImageCodecs
import WebImageTestSupport

/// Still images: decoding, headers, scaled decoding, limits.
@Suite("WebP still images")
struct WebPCoderTests {
    let coder = WebPCoder()

    /// The quadrant image's colours: red, green, blue, then the bottom-right colour.
    static func quad(_ bottomRight: RGBAColor) -> [RGBAColor] {
        [.red, .green, .blue, bottomRight]
    }

    /// quad-semi.png's bottom right: red at alpha 0.5, which ImageMagick stores as 127.
    static let semiRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 127)

    @Test("recognises WebP data and encodes only WebP")
    func detection() {
        #expect(coder.canDecode(Fixtures.data("webp/quad-lossy.webp")))
        #expect(coder.canDecode(Fixtures.data("webp/anim-compose.webp")))
        #expect(!coder.canDecode(Fixtures.data("source/quad.png")))
        #expect(!coder.canDecode(Data()))
        #expect(!coder.canDecode(Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)))
        #expect(coder.canEncode(to: .webp))
        #expect(!coder.canEncode(to: .png))
        #expect(!coder.canEncode(to: .jpeg))
    }

    @Test("decodes lossy and lossless opaque images")
    func opaque() throws {
        for (name, tolerance) in [("quad-lossy", 10), ("quad-lossless", 0)] {
            let image = try coder.decode(Fixtures.data("webp/\(name).webp"))
            #expect(image.pixelSize == PixelSize(width: 64, height: 48), "\(name)")
            #expect(image.format == .webp)
            #expect(!image.hasAlpha, "\(name)")
            #expect(!image.isAnimated)
            #expect(!image.isIncremental)
            #expect(image.scale == 1)
            #expect(image.pixels.isOpaque, "\(name)")
            expectPixels(image.pixels, quadrants(image.pixelSize, Self.quad(.white)), tolerance: tolerance)
        }
    }

    @Test("decodes lossy images with alpha")
    func lossyAlpha() throws {
        let transparent = try coder.decode(Fixtures.data("webp/quad-alpha-lossy.webp"))
        #expect(transparent.hasAlpha)
        expectPixels(transparent.pixels, quadrants(transparent.pixelSize, Self.quad(.clear)), tolerance: 10)
        // The alpha plane is stored losslessly by default, so alpha is exact even in a lossy file.
        #expect(transparent.pixels[x: 48, y: 36].alpha == 0)
        #expect(transparent.pixels[x: 16, y: 12].alpha == 255)

        let semi = try coder.decode(Fixtures.data("webp/quad-semi-lossy.webp"))
        #expect(semi.hasAlpha)
        expectPixels(semi.pixels, quadrants(semi.pixelSize, Self.quad(Self.semiRed)), tolerance: 10)
        #expect(semi.pixels[x: 48, y: 36].alpha == 127)
    }

    @Test("decodes lossless images with alpha exactly, pixel for pixel")
    func losslessAlphaExact() throws {
        for (name, bottomRight) in [("quad-alpha-lossless", RGBAColor.clear), ("quad-semi-lossless", Self.semiRed)] {
            let image = try coder.decode(Fixtures.data("webp/\(name).webp"))
            #expect(image.hasAlpha)
            let colors = Self.quad(bottomRight)
            var wrong = 0
            for y in 0..<48 {
                for x in 0..<64 {
                    let expected = colors[(y < 24 ? 0 : 2) + (x < 32 ? 0 : 1)]
                    if image.pixels[x: x, y: y] != expected { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(name): \(wrong) pixels differ")
        }
    }

    @Test("reads the headers without decoding")
    func info() throws {
        let still = try coder.info(for: Fixtures.data("webp/quad-alpha-lossy.webp"))
        #expect(still.format == .webp)
        #expect(still.pixelSize == PixelSize(width: 64, height: 48))
        #expect(still.hasAlpha)
        #expect(still.frameCount == 1)
        #expect(still.loopCount == 0)

        let opaque = try coder.info(for: Fixtures.data("webp/photo.webp"))
        #expect(opaque.pixelSize == PixelSize(width: 320, height: 240))
        #expect(!opaque.hasAlpha)

        let animation = try coder.info(for: Fixtures.data("webp/anim-img2webp.webp"))
        #expect(animation.pixelSize == PixelSize(width: 32, height: 24))
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 3)
        #expect(!animation.hasAlpha)

        let compose = try coder.info(for: Fixtures.data("webp/anim-compose.webp"))
        #expect(compose.pixelSize == PixelSize(width: 64, height: 48))
        #expect(compose.frameCount == 4)
        #expect(compose.loopCount == 2)
        #expect(compose.hasAlpha)
    }

    @Test("decodes thumbnails with libwebp's scaling")
    func thumbnail() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(square: 32)
        let quad = try coder.decode(Fixtures.data("webp/quad-lossless.webp"), options: options)
        #expect(quad.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(quad.pixels, quadrants(quad.pixelSize, Self.quad(.white)), tolerance: 10)

        let alpha = try coder.decode(Fixtures.data("webp/quad-alpha-lossless.webp"), options: options)
        #expect(alpha.pixelSize == PixelSize(width: 32, height: 24))
        expectPixels(alpha.pixels, quadrants(alpha.pixelSize, Self.quad(.clear)), tolerance: 10)

        // A photo: the reduced decode looks like the full decode reduced.
        let data = Fixtures.data("webp/photo.webp")
        options.thumbnailPixelSize = PixelSize(square: 80)
        let small = try coder.decode(data, options: options)
        #expect(small.pixelSize == PixelSize(width: 80, height: 60))
        let reference = try coder.decode(data).pixels.resampled(to: small.pixelSize, hasAlpha: false)
        #expect(WebPPixelStatistics.meanDifference(small.pixels, reference) < 4)
        #expect(small.pixels.isOpaque)

        // Stretching when the aspect ratio is not kept.
        options.thumbnailPixelSize = PixelSize(width: 100, height: 20)
        options.preserveAspectRatio = false
        #expect(try coder.decode(data, options: options).pixelSize == PixelSize(width: 100, height: 20))
    }

    @Test("applies the scale-down limit and the scale factor")
    func scaleDown() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 320 * 240          // a quarter of the pixels
        options.scaleFactor = 2
        let image = try coder.decode(Fixtures.data("webp/photo.webp"), options: options)
        #expect(image.pixelSize.pixelCount * 4 <= 320 * 240)
        #expect(image.pixelSize.width >= 150 && image.pixelSize.width <= 160)
        #expect(image.scale == 2)
    }

    @Test("refuses an image over the pixel limit, but decodes it reduced when asked")
    func pixelLimit() throws {
        let data = Fixtures.data("webp/photo.webp")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 10_000
        let error = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error?.code == .imageTooLarge)

        options.thumbnailPixelSize = PixelSize(square: 64)
        let reduced = try coder.decode(data, options: options)
        #expect(reduced.pixelSize == PixelSize(width: 64, height: 48))

        // Lossless images (and images with alpha) make libwebp hold the full image even when it scales: the
        // source itself must be within the limit.
        options.maxPixelCount = 1000
        options.thumbnailPixelSize = PixelSize(square: 16)
        #expect(try coder.decode(Fixtures.data("webp/quad-lossy.webp"), options: options).pixelSize == PixelSize(width: 16, height: 12))
        for name in ["quad-lossless", "quad-alpha-lossy"] {
            let full = #expect(throws: WebImageError.self) { try coder.decode(Fixtures.data("webp/\(name).webp"), options: options) }
            #expect(full?.code == .imageTooLarge, "\(name)")
        }

        options.maxPixelCount = 10_000
        options.thumbnailPixelSize = nil
        options.scaleDownLimitBytes = 0                    // SDWebImage's default limit: no reduction here
        let stillTooLarge = #expect(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(stillTooLarge?.code == .imageTooLarge)
    }
}

/// Pixel comparisons for photo-like images.
enum WebPPixelStatistics {
    /// The mean absolute difference over every channel of two buffers of the same size.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size)
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x: x, y: y]
                let q = b[x: x, y: y]
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green))
                    + abs(Int(p.blue) - Int(q.blue)) + abs(Int(p.alpha) - Int(q.alpha))
            }
        }
        return Double(total) / Double(a.width * a.height * 4)
    }
}
