import Foundation
import WebImage

/// A built-in transformer with parameters read from an input: resize, crop, flip, rotate, round corner, tint,
/// blur, grayscale, or a pipeline of up to four of them (pipelines nest two deep).
///
/// Numbers are mostly ordinary (0 to a few hundred, with fractions), sometimes zero or negative, and sometimes
/// one of the values that break careless conversions: NaN, the infinities, magnitudes beyond `Int` (and beyond
/// what `%f` with six decimals fits in an `Int`), the smallest and largest doubles.
enum TransformerRecipe {
    static let extremes: [Double] = [
        .nan, .infinity, -.infinity, 1e13, -1e13, 1e19, -1e19, 1e300, -1e300,
        .greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300, 0.4999999, 0.5,
    ]

    static func transformer(from input: inout FuzzInput, depth: Int = 0) -> any ImageTransforming {
        switch input.int(in: 0...(depth < 2 ? 8 : 7)) {
        case 0:
            return ImageTransformers.Resize(
                width: number(&input, upTo: 256),
                height: number(&input, upTo: 256),
                scaleMode: input.pick([.fill, .aspectFit, .aspectFill])
            )
        case 1:
            return ImageTransformers.Crop(
                x: number(&input, upTo: 64), y: number(&input, upTo: 64),
                width: number(&input, upTo: 64), height: number(&input, upTo: 64)
            )
        case 2:
            return ImageTransformers.Flip(horizontal: input.bool(), vertical: input.bool())
        case 3:
            return ImageTransformers.Rotate(angle: number(&input, upTo: 8), fitSize: input.bool())
        case 4:
            // All (SDWebImage's ~0), some of the four, or bits that name no corner.
            let mask = UInt(input.byte())
            let corners = [UInt.max, mask & 0x0f, mask << 4][input.int(in: 0...2)]
            return ImageTransformers.RoundCorner(
                radius: number(&input, upTo: 64),
                corners: ImageTransformers.RoundCorner.Corners(rawValue: corners),
                borderWidth: number(&input, upTo: 16),
                borderColor: input.bool() ? color(&input) : nil
            )
        case 5:
            return ImageTransformers.Tint(color: color(&input), blendMode: input.pick(ImageTransformers.Tint.BlendMode.allCases))
        case 6:
            return ImageTransformers.Blur(radius: number(&input, upTo: 40))
        case 7:
            return ImageTransformers.Grayscale()
        default:
            let count = input.int(in: 0...4)
            var children: [any ImageTransforming] = []
            for _ in 0..<count {
                children.append(transformer(from: &input, depth: depth + 1))
            }
            return ImageTransformers.Pipeline(children)
        }
    }

    /// A parameter: three times in four a value in `0...limit` with a fraction, else zero, a negative value
    /// or one of the ``extremes``.
    static func number(_ input: inout FuzzInput, upTo limit: Double) -> Double {
        switch input.byte() {
        case 0..<192: Double(input.int(in: 0...65535)) / 65535 * limit
        case 192..<208: 0
        case 208..<224: -Double(input.int(in: 0...65535)) / 65535 * limit
        default: input.pick(extremes)
        }
    }

    static func color(_ input: inout FuzzInput) -> RGBAColor {
        RGBAColor(red: input.byte(), green: input.byte(), blue: input.byte(), alpha: input.byte())
    }
}
