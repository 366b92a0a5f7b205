import Testing
@testable import WebImageCore

/// Parameters no caller should pass and results too large to make: every built-in transformer answers them with
/// its documented outcome (nil keeps the image) instead of trapping or allocating without bound.
@Suite struct ImageTransformersLimitsTests {
    /// NaN, the infinities, magnitudes beyond `Int` (and beyond `Int` once times 10⁶), zero and negatives.
    static let extremes: [Double] = [
        .nan, .infinity, -.infinity, 1e13, -1e13, 9.3e18, -9.3e18, 1e300, -1e300,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 0, -0.0, -3,
    ]

    /// A `width` x `height` image of `frames` frames whose pixel (x, y) is (6x, 25y, 0, 255) (mod 256), so that
    /// each column has its own red.
    private func image(_ width: Int, _ height: Int, frames: Int = 1, scale: Double = 1) throws -> Image {
        let pixels = try PixelBuffer(uninitializedWidth: width, height: height)
        for y in 0..<height {
            let row = pixels.mutableBaseAddress.advanced(by: y * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                row[x * 4] = UInt8(truncatingIfNeeded: x * 6)
                row[x * 4 + 1] = UInt8(truncatingIfNeeded: y * 25)
                row[x * 4 + 2] = 0
                row[x * 4 + 3] = 255
            }
        }
        let all = Array(repeating: ImageFrame(pixels: pixels, duration: 0.1), count: frames)
        return Image(frames: all, loopCount: 0, scale: scale, format: .png, hasAlpha: false)
    }

    /// Every built-in transformer with `value` in each of its numbers in turn, the others ordinary.
    private func transformers(with value: Double) -> [any ImageTransforming] {
        let modes: [ImageTransformers.Resize.ScaleMode] = [.fill, .aspectFit, .aspectFill]
        return modes.flatMap { mode in
            [
                ImageTransformers.Resize(width: value, height: 4, scaleMode: mode),
                ImageTransformers.Resize(width: 4, height: value, scaleMode: mode),
                ImageTransformers.Resize(width: value, height: value, scaleMode: mode),
            ]
        } + [
            ImageTransformers.Crop(x: value, y: 1, width: 4, height: 3),
            ImageTransformers.Crop(x: 1, y: value, width: 4, height: 3),
            ImageTransformers.Crop(x: 1, y: 1, width: value, height: 3),
            ImageTransformers.Crop(x: 1, y: 1, width: 4, height: value),
            ImageTransformers.Crop(x: -value, y: -value, width: value, height: value),
            ImageTransformers.Rotate(angle: value),
            ImageTransformers.Rotate(angle: value, fitSize: true),
            ImageTransformers.RoundCorner(radius: value, borderWidth: 1, borderColor: .white),
            ImageTransformers.RoundCorner(radius: 2, borderWidth: value, borderColor: .white),
            ImageTransformers.RoundCorner(radius: value, borderWidth: value),
            ImageTransformers.Blur(radius: value),
            ImageTransformers.Pipeline([
                ImageTransformers.Resize(width: value, height: 6, scaleMode: .aspectFill),
                ImageTransformers.Crop(x: value, y: 0, width: 3, height: 3),
            ]),
        ]
    }

    @Test(arguments: extremes)
    func noParameterTraps(value: Double) throws {
        for scale in [1, 3, Double.infinity] {
            let source = try image(7, 5, frames: 2, scale: scale)
            for transformer in transformers(with: value) {
                let key = transformer.transformerKey
                #expect(!key.isEmpty)
                guard let result = transformer.transform(image: source, key: "k") else { continue }
                #expect(result.frames.count == 2, "\(key)")
                #expect(result.pixelSize.pixelCount * 2 <= ImageTransformers.maxResultPixelCount, "\(key)")
            }
        }
    }

    @Test func cropRefusesNumbersThatAreNotFiniteAndClipsHugeOnes() throws {
        let source = try image(20, 10)
        func crop(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> PixelSize? {
            ImageTransformers.Crop(x: x, y: y, width: width, height: height).transform(image: source, key: "k")?.pixelSize
        }
        #expect(crop(.nan, 0, 5, 5) == nil)
        #expect(crop(0, -.infinity, 5, 5) == nil)
        #expect(crop(0, 0, .infinity, 5) == nil)
        #expect(crop(-1e19, -1e300, 1e300, .greatestFiniteMagnitude) == PixelSize(width: 20, height: 10))
        #expect(crop(2, 3, 1e13, 9.3e18) == PixelSize(width: 18, height: 7))
        #expect(crop(1e13, 0, 5, 5) == nil)
        #expect(crop(2, 3, -4, 2) == nil)
        let scaled = try image(20, 10, scale: .infinity)
        #expect(ImageTransformers.Crop(x: 0, y: 0, width: 2, height: 2).transform(image: scaled, key: "k") == nil)
    }

    @Test func resizeRefusesSizesThatAreNotFiniteOrPositive() throws {
        let source = try image(13, 9)
        let sizes: [(Double, Double)] = [(.nan, 4), (4, .infinity), (-.infinity, 4), (-4, 4), (0.4, 4), (4, -0.0)]
        for (width, height) in sizes {
            for mode in [ImageTransformers.Resize.ScaleMode.fill, .aspectFit, .aspectFill] {
                #expect(ImageTransformers.Resize(width: width, height: height, scaleMode: mode).transform(image: source, key: "k") == nil)
            }
        }
    }

    @Test func roundCornerWithAHugeOutwardBorderKeepsTheWholeImage() throws {
        // The clip grows past the image by the border on every side, so the image shows whole, at any scale.
        for scale in [1.0, 3.0] {
            let source = try image(9, 6, scale: scale)
            for border in [-20.0, -1e300, -.greatestFiniteMagnitude] {
                let result = try #require(
                    ImageTransformers.RoundCorner(radius: 4, borderWidth: border).transform(image: source, key: "k")
                )
                #expect(result.pixels == source.pixels, "border \(border) at scale \(scale)")
            }
        }
    }

    @Test func resultsOverThePixelLimitAreRefused() throws {
        #expect(ImageTransformers.maxResultPixelCount == ImageDecodeOptions.defaultMaxPixelCount)
        // 8000 x 7000 is 56 megapixels a frame, 112 over two frames.
        let animation = try image(13, 9, frames: 2)
        #expect(ImageTransformers.Resize(width: 8000, height: 7000).transform(image: animation, key: "k") == nil)
        for mode in [ImageTransformers.Resize.ScaleMode.fill, .aspectFit, .aspectFill] {
            #expect(ImageTransformers.Resize(width: 1e13, height: 1e13, scaleMode: mode).transform(image: animation, key: "k") == nil)
        }
        // At scale 2 a canvas of 6000 x 5000 points is 12 000 x 10 000 pixels.
        let doubled = try image(13, 9, scale: 2)
        #expect(ImageTransformers.Resize(width: 6000, height: 5000).transform(image: doubled, key: "k") == nil)
        // A strip turned 45° on a canvas that holds it: 10 608 x 10 608 pixels, 113 megapixels.
        let strip = try image(1, 15_000)
        #expect(ImageTransformers.Rotate(angle: .pi / 4, fitSize: true).transform(image: strip, key: "k") == nil)
        #expect(ImageTransformers.Rotate(angle: .pi / 4).transform(image: strip, key: "k")?.pixelSize == strip.pixelSize)
    }

    @Test func aspectFillResamplesOnlyWhatItKeeps() throws {
        // Enlarged whole before the cut, 13 x 9 covering 2 x 200 000 would be 288 889 x 200 000 pixels (231 GB).
        let source = try image(13, 9)
        let result = try #require(
            ImageTransformers.Resize(width: 2, height: 200_000, scaleMode: .aspectFill).transform(image: source, key: "k")
        )
        #expect(result.pixelSize == PixelSize(width: 2, height: 200_000))
        // Only the middle column (red 36) is kept, stretched down the whole height.
        for y in stride(from: 0, to: 200_000, by: 9_999) {
            #expect(result.pixels[x: 0, y: y].red == 36 && result.pixels[x: 1, y: y].red == 36, "row \(y)")
        }
        #expect(result.pixels[x: 0, y: 0].green <= 5)
        #expect(result.pixels[x: 1, y: 199_999].green >= 195)
    }

    @Test func aspectFillCutsTheMiddleOfTheSource() throws {
        let source = try image(40, 10)
        let cover = try #require(ImageTransformers.Resize(width: 10, height: 10, scaleMode: .aspectFill).transform(image: source, key: "k"))
        #expect(cover.pixelSize == PixelSize(width: 10, height: 10))
        for y in 0..<10 {
            for x in 0..<10 {
                #expect(cover.pixels[x: x, y: y] == source.pixels[x: x + 15, y: y])
            }
        }
        // Shrinking too: 40 x 10 covering 4 x 2 keeps the middle 20 x 10 of the source, five columns a pixel.
        let small = try #require(ImageTransformers.Resize(width: 4, height: 2, scaleMode: .aspectFill).transform(image: source, key: "k"))
        #expect(small.pixelSize == PixelSize(width: 4, height: 2))
        #expect(abs(Int(small.pixels[x: 0, y: 0].red) - 12 * 6) <= 3)
        #expect(abs(Int(small.pixels[x: 3, y: 1].red) - 27 * 6) <= 3)
    }
}
