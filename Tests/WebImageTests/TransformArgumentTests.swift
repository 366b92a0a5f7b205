import Testing
import WebImage
@testable import webimage

/// The `--transform` grammar: each step, its defaults, the errors, and the SDWebImage keys the chains produce.
@Suite struct TransformArgumentTests {
    /// The key of the transformer `chain` parses to.
    private func key(_ chain: String) throws -> String {
        try TransformArgument(chain: chain).transformer.transformerKey
    }

    /// The message of the error `chain` fails with, or nil when it parses.
    private func failure(_ chain: String) -> String? {
        do {
            _ = try TransformArgument(chain: chain)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func resizeDefaultsToFillAndNamesTheAspectModes() throws {
        #expect(try key("resize=256x128") == "SDImageResizingTransformer({256.000000,128.000000},0)")
        #expect(try key("resize=256x128") == ImageTransformers.Resize(width: 256, height: 128).transformerKey)
        #expect(try key("resize=256x128:fill") == ImageTransformers.Resize(width: 256, height: 128, scaleMode: .fill).transformerKey)
        #expect(try key("resize=256x128:fit") == ImageTransformers.Resize(width: 256, height: 128, scaleMode: .aspectFit).transformerKey)
        #expect(try key("resize=256x128:aspect-fit") == "SDImageResizingTransformer({256.000000,128.000000},1)")
        #expect(try key("resize=256x128:cover") == ImageTransformers.Resize(width: 256, height: 128, scaleMode: .aspectFill).transformerKey)
        #expect(try key("resize=256x128:aspect-fill") == "SDImageResizingTransformer({256.000000,128.000000},2)")
        #expect(try key("resize=12.5x3") == "SDImageResizingTransformer({12.500000,3.000000},0)")
    }

    @Test func cropTakesAnOptionalOffset() throws {
        #expect(try key("crop=10x20+3+4") == "SDImageCroppingTransformer({3.000000,4.000000,10.000000,20.000000})")
        #expect(try key("crop=10x20+3+4") == ImageTransformers.Crop(x: 3, y: 4, width: 10, height: 20).transformerKey)
        #expect(try key("crop=10x20") == ImageTransformers.Crop(x: 0, y: 0, width: 10, height: 20).transformerKey)
    }

    @Test func flipNamesEachDirection() throws {
        #expect(try key("flip=h") == "SDImageFlippingTransformer(1,0)")
        #expect(try key("flip=v") == "SDImageFlippingTransformer(0,1)")
        #expect(try key("flip=hv") == "SDImageFlippingTransformer(1,1)")
        #expect(try key("flip=vh") == ImageTransformers.Flip(horizontal: true, vertical: true).transformerKey)
    }

    @Test func rotateTakesDegreesCounterClockwise() throws {
        #expect(try key("rotate=90") == "SDImageRotationTransformer(1.570796,0)")
        #expect(try key("rotate=90") == ImageTransformers.Rotate(angle: .pi / 2).transformerKey)
        #expect(try key("rotate=-45:fit") == ImageTransformers.Rotate(angle: -.pi / 4, fitSize: true).transformerKey)
        #expect(try key("rotate=-45:fit") == "SDImageRotationTransformer(-0.785398,1)")
    }

    @Test func roundTakesCornersAndABorder() throws {
        #expect(try key("round=16") == "SDImageRoundCornerTransformer(16.000000,18446744073709551615,0.000000,(null))")
        #expect(try key("round=16") == ImageTransformers.RoundCorner(radius: 16).transformerKey)
        #expect(try key("round=16:all") == ImageTransformers.RoundCorner(radius: 16, corners: .all).transformerKey)
        #expect(try key("round=8:tl+br") == ImageTransformers.RoundCorner(radius: 8, corners: [.topLeft, .bottomRight]).transformerKey)
        #expect(try key("round=8:border=2") == ImageTransformers.RoundCorner(radius: 8, borderWidth: 2).transformerKey)
        let red = RGBAColor(red: 255, green: 0, blue: 0)
        #expect(
            try key("round=8:tl+br:border=2:#ff0000")
                == ImageTransformers.RoundCorner(radius: 8, corners: [.topLeft, .bottomRight], borderWidth: 2, borderColor: red).transformerKey
        )
        #expect(try key("round=8:tl+br:border=2:#ff0000") == "SDImageRoundCornerTransformer(8.000000,9,2.000000,#ffff0000)")
        #expect(try key("round=8:border=1.5:ffffff80") == "SDImageRoundCornerTransformer(8.000000,18446744073709551615,1.500000,#80ffffff)")
    }

    @Test func tintDefaultsToSourceInAndNamesTheSupportedModes() throws {
        let green = RGBAColor(red: 0, green: 255, blue: 0, alpha: 0x80)
        #expect(try key("tint=#00ff0080") == "SDImageTintTransformer(#8000ff00,18)")
        #expect(try key("tint=#00ff0080") == ImageTransformers.Tint(color: green).transformerKey)
        #expect(try key("tint=112233:multiply") == "SDImageTintTransformer(#ff112233,1)")
        let pairs: [(String, ImageTransformers.Tint.BlendMode)] = [
            ("normal", .normal), ("multiply", .multiply), ("screen", .screen), ("clear", .clear), ("copy", .copy),
            ("source-in", .sourceIn), ("source-out", .sourceOut), ("source-atop", .sourceAtop),
            ("destination-over", .destinationOver), ("destination-in", .destinationIn),
            ("destination-out", .destinationOut), ("destination-atop", .destinationAtop), ("xor", .xor),
        ]
        for (name, mode) in pairs {
            #expect(try key("tint=#00ff0080:\(name)") == ImageTransformers.Tint(color: green, blendMode: mode).transformerKey, "\(name)")
        }
        #expect(pairs.count == ImageTransformers.Tint.BlendMode.allCases.filter(\.isSupported).count, "every supported mode has a name")
    }

    @Test func blurAndGray() throws {
        #expect(try key("blur=2") == "SDImageBlurTransformer(2.000000)")
        #expect(try key("blur=2.5") == ImageTransformers.Blur(radius: 2.5).transformerKey)
        #expect(try key("gray") == "SDImageGrayscaleTransformer")
        #expect(try key("grayscale") == ImageTransformers.Grayscale().transformerKey)
    }

    @Test func aChainIsAPipelineInOrder() throws {
        let chain = try TransformArgument(chain: "resize=256x256:fill, round=16 ,blur=2")
        #expect(chain.steps.count == 3)
        let expected = ImageTransformers.Pipeline([
            ImageTransformers.Resize(width: 256, height: 256),
            ImageTransformers.RoundCorner(radius: 16),
            ImageTransformers.Blur(radius: 2),
        ])
        #expect(chain.transformer is ImageTransformers.Pipeline)
        #expect(chain.transformer.transformerKey == expected.transformerKey)
        #expect(
            chain.transformer.transformerKey
                == "SDImageResizingTransformer({256.000000,256.000000},0)-SDImageRoundCornerTransformer(16.000000,18446744073709551615,0.000000,(null))-SDImageBlurTransformer(2.000000)"
        )
        #expect(try TransformArgument(chain: "gray").transformer is ImageTransformers.Grayscale, "one step is itself")
        #expect(TransformArgument(argument: "flip=h,gray")?.steps.count == 2)
    }

    @Test func numbersUpToTheLimitsAreTaken() throws {
        #expect(try key("resize=10000x10000:cover") == "SDImageResizingTransformer({10000.000000,10000.000000},2)")
        #expect(try key("resize=100000000x1") == "SDImageResizingTransformer({100000000.000000,1.000000},0)")
        #expect(try key("crop=1x1+100000000+0") == "SDImageCroppingTransformer({100000000.000000,0.000000,1.000000,1.000000})")
        #expect(try key("rotate=-100000000") == ImageTransformers.Rotate(angle: -100_000_000 * .pi / 180).transformerKey)
        #expect(try key("blur=100000000") == "SDImageBlurTransformer(100000000.000000)")
    }

    @Test(arguments: [
        ("", "the chain is empty"),
        (" , ", "the chain is empty"),
        ("sharpen=2", "step 1 'sharpen=2': unknown step 'sharpen'"),
        ("gray,blur=x", "step 2 'blur=x': the radius 'x'"),
        ("resize=1x1,,gray", "step 2 '': the step is empty"),
        ("resize=0x10", "step 1 'resize=0x10': the size '0x10' must be more than 0"),
        ("resize=10", "step 1 'resize=10': '10' is not WxH"),
        ("resize=10x10:stretch", "unknown resize mode 'stretch'"),
        ("resize=10x10:fit:fit", "resize is WxH"),
        ("crop=10x10+1", "step 1 'crop=10x10+1': crop is WxH[+X+Y]"),
        ("crop=10x10+-1+2", "the x offset '-1'"),
        ("flip=d", "flip is h, v or hv"),
        ("rotate=abc", "the angle 'abc' is not a number"),
        ("rotate=90:grow", "rotate is DEGREES[:fit]"),
        ("round=4:#ff0000", "unknown corner '#ff0000'"),
        ("round=4:tl+middle", "unknown corner 'middle'"),
        ("round=4:border=1:#ff0000:#00ff00", "round is RADIUS"),
        ("round=4:border=x", "the border width 'x'"),
        ("tint=#12345", "the colour '#12345' is not #RRGGBB or #RRGGBBAA"),
        ("tint=#112233:overlay", "unknown blend mode 'overlay'"),
        ("blur", "step 1 'blur': blur needs a value"),
        ("blur=", "blur needs a value"),
        ("blur=inf", "the radius 'inf'"),
        ("blur=0x10", "the radius '0x10'"),
        ("blur=1e3", "the radius '1e3'"),
        ("blur=-1", "the radius '-1' is not a non-negative number"),
        ("gray=1", "step 1 'gray=1': gray takes no value"),
        ("resize=4x4,gray,tint=red", "step 3 'tint=red': the colour 'red'"),
        (
            "round=0777777777777777777777777770777777.",
            "step 1 'round=0777777777777777777777777770777777.': the radius '0777777777777777777777777770777777.' is too large; the limit is 100000000"
        ),
        ("resize=100000001x1", "the width '100000001' is too large; the limit is 100000000"),
        ("crop=1x1+100000000.5+0", "the x offset '100000000.5' is too large"),
        ("rotate=-123456789", "the angle '-123456789' is too large; the limit is 100000000"),
        ("round=4:border=1000000000", "the border width '1000000000' is too large"),
        ("blur=99999999999", "the radius '99999999999' is too large"),
        ("resize=20000x20000:cover", "step 1 'resize=20000x20000:cover': the size '20000x20000' is over the limit of 100000000 pixels"),
    ])
    func badChainsNameTheStep(chain: String, message: String) {
        let error = failure(chain)
        #expect(error?.contains(message) == true, "\(chain): \(error ?? "parsed")")
        #expect(TransformArgument(argument: chain) == nil)
    }
}
