import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The shared registry end to end: every built-in format decodes, converts to every other, and survives use
/// from many threads.
@Suite struct DefaultRegistryTests {
    let registry = ImageCoderRegistry.makeDefault()
    let quadColors: [RGBAColor] = [.red, .green, .blue, .white]

    static let quadFixtures = ["jpeg/quad-444.jpg", "png/rgb8.png", "webp/quad-lossless.webp", "gif/quad.gif"]

    @Test(arguments: quadFixtures)
    func decodesEveryBuiltInFormat(_ path: String) throws {
        let data = Fixtures.data(path)
        let image = try registry.decode(data)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.format == ImageFormat.detect(data))
        expectPixels(image.pixels, quadrants(image.pixelSize, quadColors), tolerance: 12)
        let info = try registry.info(for: data)
        #expect(info.pixelSize == image.pixelSize)
        #expect(info.format == image.format)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .gif])
    func convertsToEveryFormat(_ format: ImageFormat) throws {
        for path in Self.quadFixtures {
            let image = try registry.decode(Fixtures.data(path))
            let encoded = try registry.encode(image, as: format, options: ImageEncodeOptions(quality: 0.95))
            #expect(ImageFormat.detect(encoded) == format)
            let back = try registry.decode(encoded)
            #expect(back.pixelSize == image.pixelSize)
            expectPixels(back.pixels, quadrants(back.pixelSize, quadColors), tolerance: 16)
        }
    }

    @Test func defaultEncodingFormats() throws {
        let jpeg = try registry.decode(Fixtures.data("jpeg/quad-444.jpg"))
        #expect(ImageFormat.detect(try registry.encode(jpeg)) == .jpeg)
        let alpha = try registry.decode(Fixtures.data("source/quad-alpha.png"))
        #expect(ImageFormat.detect(try registry.encode(alpha)) == .png)

        // An image made in memory: PNG with alpha, JPEG without, GIF when animated.
        let opaque = Image(pixels: try PixelBuffer(width: 4, height: 4, color: .red), hasAlpha: false)
        #expect(ImageFormat.detect(try registry.encode(opaque)) == .jpeg)
        let clear = Image(pixels: try PixelBuffer(width: 4, height: 4, color: .clear), hasAlpha: true)
        #expect(ImageFormat.detect(try registry.encode(clear)) == .png)
        let a = try PixelBuffer(width: 4, height: 4, color: .red)
        let b = try PixelBuffer(width: 4, height: 4, color: .blue)
        let animation = Image(frames: [ImageFrame(pixels: a, duration: 0.2), ImageFrame(pixels: b, duration: 0.2)], loopCount: 0, hasAlpha: false)
        let gif = try registry.encode(animation)
        #expect(ImageFormat.detect(gif) == .gif)
        let decoded = try registry.decode(gif)
        #expect(decoded.frames.count == 2)
        #expect(decoded.frames[1].pixels[x: 1, y: 1] == .blue)
    }

    @Test func animationsSurviveConversion() throws {
        let gif = try registry.decode(Fixtures.data("gif/anim-loop3.gif"))
        #expect(gif.isAnimated)
        let webp = try registry.decode(registry.encode(gif, as: .webp, options: ImageEncodeOptions(lossless: true)))
        #expect(webp.frames.count == gif.frames.count)
        #expect(webp.loopCount == gif.loopCount)
        for (x, y) in zip(webp.frames, gif.frames) {
            #expect(abs(x.duration - y.duration) < 0.002)
            #expect(x.pixels == y.pixels)
        }
    }

    @Test func unsupportedAndBrokenInputsAreTypedErrors() {
        let cases: [(Data, WebImageError.Code)] = [
            (Data(), .badImageData),
            (Data("not an image at all".utf8), .unsupportedFormat),
            (Data([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]), .unsupportedFormat),   // TIFF: no coder
            (Fixtures.data("jpeg/quad-444.jpg").prefix(200), .badImageData),
            (Fixtures.data("png/rgb8.png").prefix(60), .badImageData),
            (Fixtures.data("webp/quad-lossy.webp").prefix(40), .badImageData),
            (Fixtures.data("gif/quad.gif").prefix(30), .badImageData),
        ]
        for (data, code) in cases {
            do {
                _ = try registry.decode(data)
                Issue.record("\(data.count) bytes decoded; expected \(code)")
            } catch {
                #expect(error.code == code, "\(error)")
            }
        }
    }

    @Test func decodesConcurrentlyAcrossFormats() async throws {
        let inputs = Self.quadFixtures.map { Fixtures.data($0) }
        let registry = self.registry
        let colors = quadColors
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var decoded = 0
                    for round in 0..<25 {
                        let data = inputs[(task + round) % inputs.count]
                        let image = try registry.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: round % 2 == 0 ? nil : PixelSize(square: 32)))
                        let center = quadrantCenters(image.pixelSize)[0]
                        if image.pixels[x: center.x, y: center.y].distance(to: colors[0]) <= 16 { decoded += 1 }
                    }
                    return decoded
                }
            }
            var total = 0
            for try await count in group { total += count }
            #expect(total == 200)
        }
    }
}
