import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The geometric and colour transformers written directly over pixel rows: keys in SDWebImage's formats, pixel
/// placement, and frame-by-frame work on animations.
@Suite struct ImageTransformersTests {
    /// A `width` x `height` image whose pixel (x, y) is (x, y, x + y, 255) (mod 256), so that each pixel says where
    /// it came from.
    static func gradient(width: Int, height: Int, scale: Double = 1) throws -> Image {
        let pixels = try PixelBuffer(uninitializedWidth: width, height: height)
        for y in 0..<height {
            let row = pixels.mutableBaseAddress.advanced(by: y * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                row[x * 4] = UInt8(truncatingIfNeeded: x)
                row[x * 4 + 1] = UInt8(truncatingIfNeeded: y)
                row[x * 4 + 2] = UInt8(truncatingIfNeeded: x + y)
                row[x * 4 + 3] = 255
            }
        }
        return Image(frames: [ImageFrame(pixels: pixels, duration: 0)], scale: scale, format: .png, hasAlpha: false)
    }

    @Test func keysFollowSDWebImage() {
        #expect(ImageTransformers.Resize(width: 100, height: 100, scaleMode: .aspectFill).transformerKey
            == "SDImageResizingTransformer({100.000000,100.000000},2)")
        #expect(ImageTransformers.Flip(horizontal: true, vertical: true).transformerKey == "SDImageFlippingTransformer(1,1)")
        #expect(ImageTransformers.Flip(horizontal: true).transformerKey == "SDImageFlippingTransformer(1,0)")
        #expect(ImageTransformers.Crop(x: 0, y: 0, width: 50, height: 50).transformerKey
            == "SDImageCroppingTransformer({0.000000,0.000000,50.000000,50.000000})")
        #expect(ImageTransformers.Crop(x: 1.5, y: -2.25, width: 0.0000004, height: 3).transformerKey
            == "SDImageCroppingTransformer({1.500000,-2.250000,0.000000,3.000000})")
        #expect(ImageTransformers.Key.color(RGBAColor(red: 255, green: 0, blue: 16, alpha: 128)) == "#80ff0010")
        let pipeline = ImageTransformers.Pipeline([ImageTransformers.Flip(horizontal: true), ImageTransformers.Grayscale()])
        #expect(pipeline.transformerKey == "SDImageFlippingTransformer(1,0)-SDImageGrayscaleTransformer")
        #expect(ImageTransformers.Pipeline([]).transformerKey == "")
        // The cache key SDWebImage derives with it.
        #expect(ImageCacheKeys.transformedKey(for: "image.png", transformerKey: ImageTransformers.Flip(horizontal: true).transformerKey)
            == "image-SDImageFlippingTransformer(1,0).png")
    }

    @Test func flipMirrorsEachDirection() throws {
        let image = try Self.gradient(width: 5, height: 3)
        let horizontal = try #require(ImageTransformers.Flip(horizontal: true).transform(image: image, key: ""))
        #expect(horizontal.pixels[x: 0, y: 1] == image.pixels[x: 4, y: 1])
        #expect(horizontal.pixels[x: 4, y: 2] == image.pixels[x: 0, y: 2])
        let vertical = try #require(ImageTransformers.Flip(horizontal: false, vertical: true).transform(image: image, key: ""))
        #expect(vertical.pixels[x: 3, y: 0] == image.pixels[x: 3, y: 2])
        let both = try #require(ImageTransformers.Flip(horizontal: true, vertical: true).transform(image: image, key: ""))
        #expect(both.pixels[x: 0, y: 0] == image.pixels[x: 4, y: 2])
        #expect(both.format == .png, "metadata kept")
        #expect(ImageTransformers.Flip(horizontal: false).transform(image: image, key: "") == nil)
    }

    @Test func cropCutsInPointsTimesScaleAndClips() throws {
        let image = try Self.gradient(width: 20, height: 10, scale: 2)
        let cropped = try #require(ImageTransformers.Crop(x: 2, y: 1, width: 3, height: 2).transform(image: image, key: ""))
        #expect(cropped.pixelSize == PixelSize(width: 6, height: 4))
        #expect(cropped.pixels[x: 0, y: 0] == image.pixels[x: 4, y: 2])
        #expect(cropped.pixels[x: 5, y: 3] == image.pixels[x: 9, y: 5])
        let clipped = try #require(ImageTransformers.Crop(x: 8, y: 4, width: 10, height: 10).transform(image: image, key: ""))
        #expect(clipped.pixelSize == PixelSize(width: 4, height: 2))
        #expect(ImageTransformers.Crop(x: 0, y: 0, width: 0, height: 5).transform(image: image, key: "") == nil)
        #expect(ImageTransformers.Crop(x: 50, y: 0, width: 5, height: 5).transform(image: image, key: "") == nil)
    }

    @Test func grayscaleUsesRec601AndKeepsAlpha() throws {
        let pixels = try PixelBuffer(width: 2, height: 1, color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 77))
        let image = Image(pixels: pixels, hasAlpha: true)
        let grey = try #require(ImageTransformers.Grayscale().transform(image: image, key: ""))
        #expect(grey.pixels[x: 1, y: 0] == RGBAColor(red: 76, green: 76, blue: 76, alpha: 77))
        let white = try #require(ImageTransformers.Grayscale().transform(image: Image(pixels: try PixelBuffer(width: 1, height: 1, color: .white), hasAlpha: false), key: ""))
        #expect(white.pixels[x: 0, y: 0] == .white)
    }

    @Test func resizeModes() throws {
        let image = Image(pixels: try PixelBuffer(width: 200, height: 100, color: .red), hasAlpha: false)
        let fill = try #require(ImageTransformers.Resize(width: 50, height: 50, scaleMode: .fill).transform(image: image, key: ""))
        #expect(fill.pixelSize == PixelSize(width: 50, height: 50))
        #expect(fill.pixels[x: 0, y: 0] == .red && fill.pixels[x: 49, y: 49] == .red)

        // Fit: 50 x 25 in the middle of 50 x 50, transparent above and below.
        let fit = try #require(ImageTransformers.Resize(width: 50, height: 50, scaleMode: .aspectFit).transform(image: image, key: ""))
        #expect(fit.pixelSize == PixelSize(width: 50, height: 50))
        #expect(fit.hasAlpha)
        #expect(fit.pixels[x: 25, y: 2].alpha == 0)
        #expect(fit.pixels[x: 25, y: 25] == .red)
        #expect(fit.pixels[x: 25, y: 47].alpha == 0)

        // Fill the canvas keeping the aspect: 100 x 50 cut to 50 x 50, no transparency.
        let cover = try #require(ImageTransformers.Resize(width: 50, height: 50, scaleMode: .aspectFill).transform(image: image, key: ""))
        #expect(cover.pixelSize == PixelSize(width: 50, height: 50))
        #expect(!cover.hasAlpha)
        #expect(cover.pixels[x: 0, y: 0] == .red && cover.pixels[x: 49, y: 49] == .red)

        #expect(ImageTransformers.Resize(width: 0, height: 10).transform(image: image, key: "") == nil)
    }

    @Test func aspectFillKeepsTheCentre() throws {
        // Left half blue, right half... a gradient whose middle column must land in the middle of the canvas.
        let image = try Self.gradient(width: 200, height: 100)
        let cover = try #require(ImageTransformers.Resize(width: 100, height: 100, scaleMode: .aspectFill).transform(image: image, key: ""))
        #expect(cover.pixelSize == PixelSize(width: 100, height: 100))
        // Source columns 50..<150 at full size: the canvas's first column holds source column about 50.
        let first = Int(cover.pixels[x: 0, y: 50].red)
        #expect(abs(first - 50) <= 2)
    }

    @Test func pipelineRunsInOrderAndAnimationsFrameByFrame() throws {
        let a = try PixelBuffer(width: 4, height: 2, color: .red)
        let b = try PixelBuffer(width: 4, height: 2, color: .blue)
        let animation = Image(frames: [ImageFrame(pixels: a, duration: 0.1), ImageFrame(pixels: b, duration: 0.2)], loopCount: 3, format: .gif, hasAlpha: false)
        let pipeline = ImageTransformers.Pipeline([
            ImageTransformers.Crop(x: 0, y: 0, width: 2, height: 2),
            ImageTransformers.Grayscale(),
            ImageTransformers.Flip(horizontal: false),
        ])
        let result = try #require(pipeline.transform(image: animation, key: ""))
        #expect(result.frames.count == 2)
        #expect(result.frames.map(\.duration) == [0.1, 0.2])
        #expect(result.loopCount == 3)
        #expect(result.format == .gif)
        #expect(result.pixelSize == PixelSize(width: 2, height: 2))
        #expect(result.frames[0].pixels[x: 0, y: 0] == RGBAColor(red: 76, green: 76, blue: 76))
        #expect(result.frames[1].pixels[x: 1, y: 1] == RGBAColor(red: 29, green: 29, blue: 29))
        #expect(ImageTransformers.Pipeline([ImageTransformers.Flip(horizontal: false)]).transform(image: animation, key: "") == nil)
    }

    @Test func sdWebImagePipelineKey() {
        let pipeline = ImageTransformers.Pipeline([
            ImageTransformers.Resize(width: 100, height: 100, scaleMode: .aspectFill),
            ImageTransformers.Rotate(angle: .pi / 4, fitSize: false),
            ImageTransformers.RoundCorner(radius: 50, corners: .all, borderWidth: 1, borderColor: .black),
            ImageTransformers.Flip(horizontal: true, vertical: true),
            ImageTransformers.Crop(x: 0, y: 0, width: 50, height: 50),
            ImageTransformers.Tint(color: .clear),
            ImageTransformers.Blur(radius: 5),
        ])
        #expect(pipeline.transformerKey == "SDImageResizingTransformer({100.000000,100.000000},2)-SDImageRotationTransformer(0.785398,0)-SDImageRoundCornerTransformer(50.000000,18446744073709551615,1.000000,#ff000000)-SDImageFlippingTransformer(1,1)-SDImageCroppingTransformer({0.000000,0.000000,50.000000,50.000000})-SDImageTintTransformer(#00000000,18)-SDImageBlurTransformer(5.000000)")
    }
}
