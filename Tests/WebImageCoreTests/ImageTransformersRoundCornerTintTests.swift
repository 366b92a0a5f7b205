import Testing
import WebImageCore

@Suite struct ImageTransformersRoundCornerTintTests {
    private let red = RGBAColor(red: 255, green: 0, blue: 0)
    private let blue = RGBAColor(red: 0, green: 0, blue: 255)
    private let green = RGBAColor(red: 0, green: 200, blue: 0)

    private func image(_ width: Int, _ height: Int, color: RGBAColor, hasAlpha: Bool = false) throws -> Image {
        Image(pixels: try PixelBuffer(width: width, height: height, color: color), hasAlpha: hasAlpha)
    }

    // MARK: Keys

    @Test func roundCornerKeysMatchSDWebImage() {
        let key = ImageTransformers.RoundCorner(radius: 50, corners: .all, borderWidth: 1, borderColor: .black).transformerKey
        #expect(key == "SDImageRoundCornerTransformer(50.000000,18446744073709551615,1.000000,#ff000000)")
        #expect(ImageTransformers.RoundCorner(radius: 12.5).transformerKey == "SDImageRoundCornerTransformer(12.500000,18446744073709551615,0.000000,(null))")
        let some = ImageTransformers.RoundCorner(radius: 8, corners: [.topLeft, .bottomRight], borderWidth: 2, borderColor: RGBAColor(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x78))
        #expect(some.transformerKey == "SDImageRoundCornerTransformer(8.000000,9,2.000000,#78123456)")
        #expect(ImageTransformers.RoundCorner.Corners.all.rawValue == UInt.max)
        #expect(ImageTransformers.RoundCorner.Corners([.topLeft, .topRight, .bottomLeft, .bottomRight]).rawValue == 15)
    }

    @Test func tintKeysMatchSDWebImage() {
        #expect(ImageTransformers.Tint(color: .clear).transformerKey == "SDImageTintTransformer(#00000000,18)")
        #expect(ImageTransformers.Tint(color: red, blendMode: .normal).transformerKey == "SDImageTintTransformer(#ffff0000,0)")
        #expect(ImageTransformers.Tint(color: blue, blendMode: .destinationIn).transformerKey == "SDImageTintTransformer(#ff0000ff,22)")
    }

    @Test func blendModesUseCoreGraphicsNumbers() {
        typealias Mode = ImageTransformers.Tint.BlendMode
        #expect(Mode.normal.rawValue == 0)
        #expect(Mode.multiply.rawValue == 1)
        #expect(Mode.screen.rawValue == 2)
        #expect(Mode.clear.rawValue == 16)
        #expect(Mode.sourceIn.rawValue == 18)
        #expect(Mode.sourceAtop.rawValue == 20)
        #expect(Mode.destinationIn.rawValue == 22)
        #expect(Mode.plusLighter.rawValue == 27)
        #expect(Mode.allCases.count == 28)
    }

    // MARK: Round corner

    @Test func roundCornerClearsCornersAndStrokesBorder() throws {
        // SDWebImage's own check: radius 50, border 1, the border colour at (1, 150).
        let source = try image(300, 300, color: blue)
        let transformer = ImageTransformers.RoundCorner(radius: 50, borderWidth: 1, borderColor: red)
        let result = try #require(transformer.transform(image: source, key: "k"))
        #expect(result.width == 300 && result.height == 300)
        #expect(result.hasAlpha)
        for (x, y) in [(0, 0), (299, 0), (0, 299), (299, 299)] {
            #expect(result.pixels[x: x, y: y].alpha == 0, "corner (\(x), \(y))")
        }
        #expect(result.pixels[x: 1, y: 150] == red)
        #expect(result.pixels[x: 150, y: 1] == red)
        #expect(result.pixels[x: 298, y: 150] == red)
        #expect(result.pixels[x: 0, y: 150].alpha == 0)  // outside the clip, inset by the border width
        #expect(result.pixels[x: 150, y: 150] == blue)
        #expect(result.pixels[x: 150, y: 20] == blue)
    }

    @Test func wideBorderFollowsSDWebImageStrokeGeometry() throws {
        // Width 4: the line is centred 4.5 pixels in, so it covers 2.5...6.5.
        let source = try image(300, 300, color: blue)
        let result = try #require(ImageTransformers.RoundCorner(radius: 50, borderWidth: 4, borderColor: red).transform(image: source, key: "k"))
        #expect(result.pixels[x: 1, y: 150].alpha == 0)
        for x in 3...5 { #expect(result.pixels[x: x, y: 150] == red) }
        #expect(result.pixels[x: 2, y: 150].alpha > 100 && result.pixels[x: 2, y: 150].alpha < 160)
        #expect(result.pixels[x: 7, y: 150] == blue)
        #expect(result.pixels[x: 0, y: 0].alpha == 0 && result.pixels[x: 299, y: 299].alpha == 0)
    }

    @Test func roundCornerAntiAliasesTheArc() throws {
        let source = try image(100, 100, color: blue)
        let result = try #require(ImageTransformers.RoundCorner(radius: 40).transform(image: source, key: "k"))
        // Along the diagonal of the top-left corner the alpha rises from 0 to 255 through partial values.
        let alphas = (0..<40).map { Int(result.pixels[x: $0, y: $0].alpha) }
        #expect(alphas.first == 0 && alphas.last == 255)
        #expect(alphas.contains { $0 > 0 && $0 < 255 })
        #expect(zip(alphas, alphas.dropFirst()).allSatisfy { $0 <= $1 })
        // Without a border the straight edges are untouched.
        #expect(result.pixels[x: 0, y: 50] == blue)
    }

    @Test func onlyMaskedCornersAreRounded() throws {
        let source = try image(300, 300, color: blue)
        let result = try #require(ImageTransformers.RoundCorner(radius: 50, corners: .topLeft).transform(image: source, key: "k"))
        #expect(result.pixels[x: 0, y: 0].alpha == 0)
        #expect(result.pixels[x: 299, y: 0] == blue)
        #expect(result.pixels[x: 0, y: 299] == blue)
        #expect(result.pixels[x: 299, y: 299] == blue)
        let bottomRight = try #require(ImageTransformers.RoundCorner(radius: 50, corners: .bottomRight).transform(image: source, key: "k"))
        #expect(bottomRight.pixels[x: 299, y: 299].alpha == 0)
        #expect(bottomRight.pixels[x: 0, y: 0] == blue)
    }

    @Test func borderOfHalfTheSideOrMoreLeavesNothing() throws {
        let source = try image(20, 10, color: blue)
        let result = try #require(ImageTransformers.RoundCorner(radius: 2, borderWidth: 5, borderColor: red).transform(image: source, key: "k"))
        #expect(result.pixels[x: 10, y: 5] == .clear)
    }

    @Test func roundCornerWorksInPointsAtTheImageScale() throws {
        let pixels = try PixelBuffer(width: 200, height: 200, color: blue)
        let source = Image(pixels: pixels, scale: 2, hasAlpha: false)
        let result = try #require(ImageTransformers.RoundCorner(radius: 25, borderWidth: 1, borderColor: red).transform(image: source, key: "k"))
        #expect(result.scale == 2)
        // Border 1 point = 2 pixels, centred floor(2) + 0.5 = 2.5 pixels in: covers 1.5...3.5.
        #expect(result.pixels[x: 0, y: 100].alpha == 0)
        #expect(result.pixels[x: 1, y: 100].alpha > 100 && result.pixels[x: 1, y: 100].alpha < 160)
        #expect(result.pixels[x: 2, y: 100] == red)
        #expect(result.pixels[x: 4, y: 100] == blue)
        // Radius 25 points = 50 pixels.
        #expect(result.pixels[x: 12, y: 12].alpha == 0)
    }

    // MARK: Tint

    @Test func tintSourceInKeepsTransparentPixelsClear() throws {
        let pixels = try PixelBuffer(width: 2, height: 1) { bytes in
            let values: [UInt8] = [10, 20, 30, 255, 0, 0, 0, 0]
            for (i, v) in values.enumerated() { bytes[i] = v }
        }
        let source = Image(pixels: pixels, hasAlpha: true)
        let result = try #require(ImageTransformers.Tint(color: red).transform(image: source, key: "k"))
        #expect(result.pixels[x: 0, y: 0] == red)
        #expect(result.pixels[x: 1, y: 0].alpha == 0)
        #expect(result.hasAlpha)
    }

    @Test func tintSourceInKeepsPartialAlpha() throws {
        let source = try image(3, 3, color: RGBAColor(red: 9, green: 9, blue: 9, alpha: 128), hasAlpha: true)
        let result = try #require(ImageTransformers.Tint(color: green).transform(image: source, key: "k"))
        #expect(result.pixels[x: 1, y: 1] == RGBAColor(red: 0, green: 200, blue: 0, alpha: 128))
    }

    @Test func tintNormalWithHalfTransparentColourBlendsHalfway() throws {
        let source = try image(4, 4, color: .white)
        let tint = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
        let result = try #require(ImageTransformers.Tint(color: tint, blendMode: .normal).transform(image: source, key: "k"))
        #expect(result.pixels[x: 2, y: 2].distance(to: RGBAColor(red: 255, green: 127, blue: 127)) <= 1)
        #expect(!result.hasAlpha)
    }

    @Test func tintMultiplyScreenAndAtop() throws {
        let source = try image(2, 2, color: RGBAColor(red: 200, green: 100, blue: 0))
        let tint = RGBAColor(red: 128, green: 255, blue: 0)
        let multiply = try #require(ImageTransformers.Tint(color: tint, blendMode: .multiply).transform(image: source, key: "k"))
        #expect(multiply.pixels[x: 0, y: 0].distance(to: RGBAColor(red: 100, green: 100, blue: 0)) <= 1)
        let screen = try #require(ImageTransformers.Tint(color: tint, blendMode: .screen).transform(image: source, key: "k"))
        #expect(screen.pixels[x: 0, y: 0].distance(to: RGBAColor(red: 228, green: 255, blue: 0)) <= 1)
        let atop = try #require(ImageTransformers.Tint(color: tint, blendMode: .sourceAtop).transform(image: source, key: "k"))
        #expect(atop.pixels[x: 0, y: 0] == tint)
    }

    @Test func tintDestinationInUsesTheColoursAlpha() throws {
        let source = try image(2, 2, color: blue)
        let tint = RGBAColor(red: 255, green: 255, blue: 255, alpha: 51)
        let result = try #require(ImageTransformers.Tint(color: tint, blendMode: .destinationIn).transform(image: source, key: "k"))
        #expect(result.pixels[x: 1, y: 1] == RGBAColor(red: 0, green: 0, blue: 255, alpha: 51))
        #expect(result.hasAlpha)
    }

    @Test func clearTintKeepsTheImage() throws {
        let source = try image(2, 2, color: blue)
        let result = ImageTransformers.Tint(color: .clear).transform(image: source, key: "k")
        #expect(result === source)
    }

    @Test func unsupportedBlendModeReturnsNil() throws {
        let source = try image(2, 2, color: blue)
        #expect(ImageTransformers.Tint(color: red, blendMode: .overlay).transform(image: source, key: "k") == nil)
        #expect(ImageTransformers.Tint(color: red, blendMode: .plusDarker).transform(image: source, key: "k") == nil)
        #expect(!ImageTransformers.Tint.BlendMode.hue.isSupported)
        for mode in [ImageTransformers.Tint.BlendMode.normal, .multiply, .screen, .sourceIn, .sourceAtop, .destinationIn] {
            #expect(mode.isSupported)
        }
    }

    // MARK: Animation

    @Test func animatedImagesKeepFramesAndDurations() throws {
        let frames = [
            ImageFrame(pixels: try PixelBuffer(width: 30, height: 30, color: blue), duration: 0.1),
            ImageFrame(pixels: try PixelBuffer(width: 30, height: 30, color: green), duration: 0.25),
        ]
        let source = Image(frames: frames, loopCount: 2, scale: 1, format: .gif, hasAlpha: false)
        let transformers: [any ImageTransforming] = [
            ImageTransformers.RoundCorner(radius: 10, borderWidth: 1, borderColor: red),
            ImageTransformers.Tint(color: red, blendMode: .sourceIn),
        ]
        for transformer in transformers {
            let result = try #require(transformer.transform(image: source, key: "k"))
            #expect(result.frames.count == 2)
            #expect(result.frames.map(\.duration) == [0.1, 0.25])
            #expect(result.loopCount == 2)
            #expect(result.format == .gif)
        }
        let rounded = try #require(transformers[0].transform(image: source, key: "k"))
        #expect(rounded.frames[0].pixels[x: 15, y: 15] == blue)
        #expect(rounded.frames[1].pixels[x: 15, y: 15] == green)
        #expect(rounded.frames[1].pixels[x: 0, y: 0].alpha == 0)
    }
}
