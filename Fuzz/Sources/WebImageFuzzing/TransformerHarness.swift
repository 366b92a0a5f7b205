import Foundation
import WebImage

/// Fuzzes the built-in transformers: a transformer with random parameters (``TransformerRecipe``) over a random
/// small image (up to 48 x 48 pixels, up to three frames, scale 1 to 3).
///
/// Its key must be stable, and its result must have the size its documentation gives
/// (``TransformerModel``), every frame of the source with its duration, and the source's format, scale and loop
/// count. Results the harness would not let a transformer allocate (over four megapixels) are not made.
enum TransformerHarness {
    static var target: FuzzTarget {
        FuzzTarget(
            name: "transformers",
            summary: "Transformers with random parameters over random small images",
            maxLength: 4 << 10,
            run: run
        )
    }

    static func run(_ data: Data) {
        var input = FuzzInput(data)
        let transformer = TransformerRecipe.transformer(from: &input)
        let scale = Double(input.int(in: 1...3))
        let recipe = ImageRecipe.image(from: &input, seed: data, maxFrames: 3, maxSide: 48)
        let image = Image(frames: recipe.frames, loopCount: recipe.loopCount, scale: scale, format: .png, hasAlpha: recipe.hasAlpha)
        apply(transformer, to: image)
    }

    /// Runs `transformer` on `image` and checks the result against the model, unless the result would be too
    /// large.
    static func apply(_ transformer: any ImageTransforming, to image: Image) {
        let key = transformer.transformerKey
        fuzzCheck(key == transformer.transformerKey, "the key of \(transformer) changes between calls")
        let outcome = TransformerModel.outcome(of: transformer, size: image.pixelSize, scale: image.scale, frames: image.frames.count)
        if outcome == .tooLarge { return }

        let result = transformer.transform(image: image, key: "https://example.com/image.png")
        let output = result ?? image
        switch outcome {
        case .kept:
            fuzzCheck(
                output.pixelSize == image.pixelSize,
                "\(key) should keep \(image.pixelSize) of \(image), made \(output.pixelSize)"
            )
        case .sized(let size):
            fuzzCheck(output.pixelSize == size, "\(key) on \(image) made \(output.pixelSize), documented \(size)")
        case .undocumented, .tooLarge:
            break
        }
        guard let result else { return }
        fuzzCheck(
            result.frames.count == image.frames.count,
            "\(key) made \(result.frames.count) frames of \(image.frames.count)"
        )
        for (index, (frame, source)) in zip(result.frames, image.frames).enumerated() {
            fuzzCheck(
                frame.duration == source.duration,
                "\(key) changed frame \(index)'s duration from \(source.duration) to \(frame.duration)"
            )
        }
        fuzzCheck(result.scale == image.scale, "\(key) changed the scale from \(image.scale) to \(result.scale)")
        fuzzCheck(result.format == image.format, "\(key) changed the format from \(image.format) to \(result.format)")
        fuzzCheck(
            result.loopCount == image.loopCount,
            "\(key) changed the loop count from \(image.loopCount) to \(result.loopCount)"
        )
        if result !== image, transformer is ImageTransformers.Rotate || transformer is ImageTransformers.RoundCorner {
            fuzzCheck(result.hasAlpha, "\(key) made an image without alpha; its result always has alpha")
        }
    }
}
