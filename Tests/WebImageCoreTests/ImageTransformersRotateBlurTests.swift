import Testing
@testable import WebImageCore
import WebImageTestSupport

@Suite struct ImageTransformersRotateBlurTests {
    /// A `width` x `height` image whose pixels come from `color(x, y)`.
    private func image(
        _ width: Int, _ height: Int, hasAlpha: Bool = false, _ color: (Int, Int) -> RGBAColor
    ) throws -> Image {
        let pixels = try PixelBuffer(uninitializedWidth: width, height: height)
        let bytes = pixels.mutableBaseAddress.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                let p = bytes + y * pixels.bytesPerRow + x * 4
                p[0] = c.red; p[1] = c.green; p[2] = c.blue; p[3] = c.alpha
            }
        }
        return Image(pixels: pixels, hasAlpha: hasAlpha)
    }

    /// A pattern in which every pixel differs from its neighbours.
    private func pattern(_ x: Int, _ y: Int) -> RGBAColor {
        RGBAColor(red: UInt8((x * 7 + y * 3) % 256), green: UInt8((x * 13 + y * 29) % 256), blue: UInt8((x ^ y) % 256))
    }

    // MARK: - Keys

    @Test func keysMatchSDWebImage() {
        #expect(ImageTransformers.Rotate(angle: .pi / 4).transformerKey == "SDImageRotationTransformer(0.785398,0)")
        #expect(ImageTransformers.Rotate(angle: .pi / 2, fitSize: true).transformerKey == "SDImageRotationTransformer(1.570796,1)")
        #expect(ImageTransformers.Rotate(angle: -1).transformerKey == "SDImageRotationTransformer(-1.000000,0)")
        #expect(ImageTransformers.Blur(radius: 5).transformerKey == "SDImageBlurTransformer(5.000000)")
        #expect(ImageTransformers.Blur(radius: 0.5).transformerKey == "SDImageBlurTransformer(0.500000)")
    }

    // MARK: - Rotate

    @Test func fitSizeGrowsTheCanvasToTheBoundingBox() throws {
        let source = try image(300, 300) { _, _ in .red }
        let result = try #require(ImageTransformers.Rotate(angle: .pi / 4, fitSize: true).transform(image: source, key: "k"))
        #expect(abs(result.width - 425) <= 1)
        #expect(abs(result.height - 425) <= 1)
        #expect(result.hasAlpha)
        let w = result.width, h = result.height
        expectPixels(result.pixels, [
            ExpectedPixel(x: 0, y: 0, .clear), ExpectedPixel(x: w - 1, y: 0, .clear),
            ExpectedPixel(x: 0, y: h - 1, .clear), ExpectedPixel(x: w - 1, y: h - 1, .clear),
            ExpectedPixel(x: w / 2, y: h / 2, .red),
            // The diamond's tips touch the middle of each side.
            ExpectedPixel(x: w / 2, y: 2, .red), ExpectedPixel(x: 2, y: h / 2, .red),
        ])
        // Edges are antialiased: red all along, only alpha ramps.
        for x in 0..<w {
            let p = result.pixels[x: x, y: h / 4]
            if p.alpha > 0 { #expect(p.red >= 250 && p.green <= 2 && p.blue <= 2, "\(x): \(p)") }
        }
    }

    @Test func withoutFitSizeTheCanvasKeepsTheSourceSize() throws {
        let source = try image(120, 80) { _, _ in .blue }
        let result = try #require(ImageTransformers.Rotate(angle: .pi / 4).transform(image: source, key: "k"))
        #expect(result.pixelSize == source.pixelSize)
        #expect(result.hasAlpha)
        expectPixels(result.pixels, [ExpectedPixel(x: 0, y: 0, .clear), ExpectedPixel(x: 60, y: 40, .blue)])
    }

    @Test func quarterTurnIsCounterClockwise() throws {
        // A marker at the top right must move to the top left; the top left to the bottom left.
        let source = try image(10, 10) { x, y in
            if x == 9 && y == 0 { return .red }
            if x == 0 && y == 0 { return .green }
            return .white
        }
        let result = try #require(ImageTransformers.Rotate(angle: .pi / 2).transform(image: source, key: "k"))
        #expect(result.pixelSize == source.pixelSize)
        #expect(result.pixels[x: 0, y: 0] == .red)
        #expect(result.pixels[x: 0, y: 9] == .green)
        #expect(result.pixels[x: 9, y: 9] == .white)
    }

    @Test func quarterTurnWithFitSizeMovesWholePixels() throws {
        let source = try image(30, 20, pattern)
        let result = try #require(ImageTransformers.Rotate(angle: .pi / 2, fitSize: true).transform(image: source, key: "k"))
        #expect(result.width == 20 && result.height == 30)
        // Counter-clockwise: target (x, y) shows source (width − 1 − y, x).
        for y in 0..<30 {
            for x in 0..<20 {
                #expect(result.pixels[x: x, y: y] == source.pixels[x: 29 - y, y: x])
            }
        }
    }

    @Test func zeroAngleKeepsThePixels() throws {
        let source = try image(37, 23, pattern)
        for fitSize in [false, true] {
            let result = try #require(ImageTransformers.Rotate(angle: 0, fitSize: fitSize).transform(image: source, key: "k"))
            #expect(result.pixels == source.pixels)
        }
        let full = try #require(ImageTransformers.Rotate(angle: 2 * .pi).transform(image: source, key: "k"))
        #expect(full.pixels == source.pixels)
    }

    // MARK: - Blur

    @Test func boxSizeFollowsTheSVGApproximation() {
        #expect(ImageTransformers.Blur.boxSize(radius: 5) == 9)     // ⌊9.90⌋ = 9
        #expect(ImageTransformers.Blur.boxSize(radius: 1) == 5)     // clamped to 2: ⌊4.26⌋ = 4, made odd
        #expect(ImageTransformers.Blur.boxSize(radius: 10) == 19)   // ⌊19.30⌋ = 19
        #expect(ImageTransformers.Blur.boxSize(radius: 4) == 9)     // ⌊8.02⌋ = 8, made odd
    }

    @Test func radiusBelowOneKeepsTheImage() throws {
        let source = try image(8, 8) { _, _ in .red }
        #expect(ImageTransformers.Blur(radius: 0.5).transform(image: source, key: "k") == nil)
        #expect(ImageTransformers.Blur(radius: 0).transform(image: source, key: "k") == nil)
    }

    @Test func uniformImageStaysUniform() throws {
        let color = RGBAColor(red: 12, green: 200, blue: 99)
        let source = try image(53, 41) { _, _ in color }
        let result = try #require(ImageTransformers.Blur(radius: 5).transform(image: source, key: "k"))
        #expect(result.pixelSize == source.pixelSize)
        #expect(!result.hasAlpha)
        for y in 0..<41 {
            for x in 0..<53 where result.pixels[x: x, y: y] != color {
                Issue.record("(\(x), \(y)) is \(result.pixels[x: x, y: y])")
            }
        }
    }

    @Test func uniformTranslucentImageStaysUniform() throws {
        let color = RGBAColor(red: 12, green: 200, blue: 99, alpha: 128)
        let source = try image(40, 30, hasAlpha: true) { _, _ in color }
        let result = try #require(ImageTransformers.Blur(radius: 3).transform(image: source, key: "k"))
        let first = result.pixels[x: 0, y: 0]
        #expect(first.distance(to: color) <= 1)
        for y in 0..<30 {
            for x in 0..<40 where result.pixels[x: x, y: y] != first {
                Issue.record("(\(x), \(y)) is \(result.pixels[x: x, y: y])")
            }
        }
    }

    @Test func edgeBecomesASmoothMonotonicRamp() throws {
        let source = try image(200, 40) { x, _ in x < 100 ? .black : .white }
        let result = try #require(ImageTransformers.Blur(radius: 5).transform(image: source, key: "k"))
        for y in [0, 20, 39] {
            var previous: UInt8 = 0
            var intermediate = 0
            for x in 0..<200 {
                let p = result.pixels[x: x, y: y]
                #expect(p.red == p.green && p.green == p.blue && p.alpha == 255)
                #expect(p.red >= previous, "not monotonic at \(x)")
                previous = p.red
                if p.red > 5 && p.red < 250 { intermediate += 1 }
                if x < 80 { #expect(p.red == 0, "\(x): \(p)") }
                if x >= 120 { #expect(p.red == 255, "\(x): \(p)") }
            }
            // Three boxes of 9 spread the step over about 25 pixels.
            #expect(intermediate >= 10)
            #expect(result.pixels[x: 99, y: y].red < 128 && result.pixels[x: 100, y: y].red >= 128)
        }
    }

    @Test func verticalEdgeIsBlurredToo() throws {
        let source = try image(20, 200) { _, y in y < 100 ? .black : .white }
        let result = try #require(ImageTransformers.Blur(radius: 5).transform(image: source, key: "k"))
        var previous: UInt8 = 0
        for y in 0..<200 {
            let value = result.pixels[x: 10, y: y].red
            #expect(value >= previous)
            previous = value
        }
        #expect(result.pixels[x: 10, y: 50].red == 0 && result.pixels[x: 10, y: 150].red == 255)
        #expect(result.pixels[x: 10, y: 97].red > 5 && result.pixels[x: 10, y: 102].red < 250)
    }

    @Test(arguments: [(37, 29), (3, 5), (9, 2), (10, 1)])
    func matchesAPlainBoxBlur(width: Int, height: Int) throws {
        // Odd sizes exercise the partial column strips and the row left over from the pairs; rows narrower than
        // the box, the clamped edges alone. The plain version sums every box from scratch.
        let source = try image(width, height, pattern)
        let result = try #require(ImageTransformers.Blur(radius: 5).transform(image: source, key: "k"))
        let d = ImageTransformers.Blur.boxSize(radius: 5), half = d / 2
        func channel(_ color: RGBAColor, _ c: Int) -> Int { Int([color.red, color.green, color.blue][c]) }
        var channels = (0..<3).map { c in
            (0..<height).map { y in (0..<width).map { x in channel(source.pixels[x: x, y: y], c) } }
        }
        for c in 0..<3 {
            for _ in 0..<3 {
                channels[c] = (0..<height).map { y in
                    (0..<width).map { x in ((-half...half).reduce(0) { $0 + channels[c][y][min(max(x + $1, 0), width - 1)] } + d / 2) / d }
                }
            }
            for _ in 0..<3 {
                channels[c] = (0..<height).map { y in
                    (0..<width).map { x in ((-half...half).reduce(0) { $0 + channels[c][min(max(y + $1, 0), height - 1)][x] } + d / 2) / d }
                }
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let p = result.pixels[x: x, y: y]
                let expected = RGBAColor(red: UInt8(channels[0][y][x]), green: UInt8(channels[1][y][x]), blue: UInt8(channels[2][y][x]))
                #expect(p == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func transparentImageStaysTransparent() throws {
        let source = try image(30, 30, hasAlpha: true) { _, _ in .clear }
        let result = try #require(ImageTransformers.Blur(radius: 5).transform(image: source, key: "k"))
        #expect(result.hasAlpha)
        for y in 0..<30 {
            for x in 0..<30 where result.pixels[x: x, y: y] != .clear {
                Issue.record("(\(x), \(y)) is \(result.pixels[x: x, y: y])")
            }
        }
    }

    @Test func transparentPixelsLendNoColour() throws {
        // Left half fully transparent black, right half opaque red: the blurred fringe is red fading out, never dark.
        let source = try image(100, 10, hasAlpha: true) { x, _ in x < 50 ? .clear : .red }
        let result = try #require(ImageTransformers.Blur(radius: 5).transform(image: source, key: "k"))
        var fringe = 0
        for x in 0..<100 {
            let p = result.pixels[x: x, y: 5]
            if p.alpha == 0 { #expect(p == .clear); continue }
            if p.alpha < 255 { fringe += 1 }
            #expect(p.red >= 250 && p.green <= 2 && p.blue <= 2, "\(x): \(p)")
        }
        #expect(fringe >= 10)
        #expect(result.pixels[x: 10, y: 5] == .clear)
        #expect(result.pixels[x: 90, y: 5] == .red)
    }

    // MARK: - Animation

    @Test func animationsKeepFramesDurationsAndLoopCount() throws {
        let first = try PixelBuffer(width: 40, height: 30, color: .red)
        let second = try PixelBuffer(width: 40, height: 30, color: .blue)
        let source = Image(
            frames: [ImageFrame(pixels: first, duration: 0.1), ImageFrame(pixels: second, duration: 0.25)],
            loopCount: 3, scale: 2, format: .gif, hasAlpha: false
        )
        let transformers: [any ImageTransforming] = [
            ImageTransformers.Rotate(angle: .pi / 6, fitSize: true),
            ImageTransformers.Blur(radius: 2),
        ]
        for transformer in transformers {
            let result = try #require(transformer.transform(image: source, key: "k"))
            #expect(result.frames.count == 2)
            #expect(result.frames.map(\.duration) == [0.1, 0.25])
            #expect(result.loopCount == 3)
            #expect(result.scale == 2)
            #expect(result.format == .gif)
            let w = result.width, h = result.height
            #expect(result.frames[0].pixels[x: w / 2, y: h / 2] == .red)
            #expect(result.frames[1].pixels[x: w / 2, y: h / 2] == .blue)
        }
    }

    @Test(arguments: [true, false])
    func splittingAcrossWorkersChangesNoPixel(opaque: Bool) throws {
        // Large enough that a blur splits its work by default; an odd width leaves a narrow last strip.
        let width = 1_031, height = 1_019
        let source = try PixelBuffer(uninitializedWidth: width, height: height)
        var state: UInt32 = 12_345
        for y in 0..<height {
            let row = source.mutableBaseAddress.advanced(by: y * source.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width * 4 {
                state = state &* 1_664_525 &+ 1_013_904_223
                row[x] = opaque && x % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let box = ImageTransformers.Blur.BoxBlur(boxSize: ImageTransformers.Blur.boxSize(radius: 3))
        let serial = try PixelBuffer(uninitializedWidth: width, height: height)
        box.blur(source, into: serial, opaque: opaque, workers: 1)
        for workers in [2, 3] {
            let split = try PixelBuffer(uninitializedWidth: width, height: height)
            box.blur(source, into: split, opaque: opaque, workers: workers)
            #expect(split == serial, "\(workers) workers")
        }
    }
}
