import Foundation
import WebImage

/// The size each built-in transformer documents for its result, worked out in floating point so that the model
/// itself never traps on the parameters it is checking.
enum TransformerModel {
    /// What a transformer does to an image's size.
    enum Outcome: Equatable {
        /// It returns nil, or the image itself: the size stays.
        case kept
        /// It returns an image of this size.
        case sized(PixelSize)
        /// The documentation does not say (parameters that are not finite, or a size beyond `Int`): only the
        /// absence of a crash is checked, and the size is unknown from here on.
        case undocumented
        /// The result would be larger than the harness lets a transformer allocate.
        case tooLarge
    }

    /// The most pixels, over all frames, a result may have for the harness to run the transformer.
    static var maxPixels: Double { Double(1 << 22) }

    /// The outcome of `transformer` on an image of `size` pixels at `scale`, with `frames` frames.
    static func outcome(of transformer: any ImageTransforming, size: PixelSize, scale: Double, frames: Int) -> Outcome {
        let width = Double(size.width)
        let height = Double(size.height)
        switch transformer {
        case let resize as ImageTransformers.Resize:
            guard resize.width.isFinite, resize.height.isFinite else { return .undocumented }
            guard resize.width > 0, resize.height > 0 else { return .kept }
            let canvas = (width: (resize.width * scale).rounded(), height: (resize.height * scale).rounded())
            guard canvas.width >= 1, canvas.height >= 1 else { return .kept }
            return pixelSize(canvas.width, canvas.height, frames: frames)
        case let crop as ImageTransformers.Crop:
            guard [crop.x, crop.y, crop.width, crop.height].allSatisfy(\.isFinite) else { return .undocumented }
            let left = max(0, (crop.x * scale).rounded(.down))
            let top = max(0, (crop.y * scale).rounded(.down))
            let right = min(width, ((crop.x + crop.width) * scale).rounded(.up))
            let bottom = min(height, ((crop.y + crop.height) * scale).rounded(.up))
            guard crop.width > 0, crop.height > 0, right > left, bottom > top else { return .kept }
            return pixelSize(right - left, bottom - top, frames: frames)
        case let rotate as ImageTransformers.Rotate:
            guard rotate.angle.isFinite, rotate.angle != 0 else { return .kept }
            guard rotate.fitSize else { return .sized(size) }
            // The bounding box rounded up, after the hair of tolerance (and the snapping of quarter turns) the
            // transformer allows for floating-point noise.
            func snapped(_ value: Double) -> Double {
                if abs(value) < 1e-12 { return 0 }
                return abs(abs(value) - 1) < 1e-12 ? 1 : abs(value)
            }
            let cosine = snapped(cos(rotate.angle))
            let sine = snapped(sin(rotate.angle))
            return pixelSize(
                max(1, (width * cosine + height * sine - 1e-6).rounded(.up)),
                max(1, (width * sine + height * cosine - 1e-6).rounded(.up)),
                frames: frames
            )
        case let round as ImageTransformers.RoundCorner:
            return round.radius.isFinite && round.borderWidth.isFinite ? .sized(size) : .kept
        case let blur as ImageTransformers.Blur:
            return blur.radius.isFinite && blur.radius >= 1 ? .sized(size) : .kept
        case let flip as ImageTransformers.Flip:
            return flip.horizontal || flip.vertical ? .sized(size) : .kept
        case let tint as ImageTransformers.Tint:
            return tint.color.alpha > 0 && tint.blendMode.isSupported ? .sized(size) : .kept
        case is ImageTransformers.Grayscale:
            return .sized(size)
        case let pipeline as ImageTransformers.Pipeline:
            // After a step the model cannot size, the next steps are sized as if it kept the image, so that one
            // that would be too large is still caught.
            var current = size
            var changed = false
            var undocumented = false
            for child in pipeline.transformers {
                switch outcome(of: child, size: current, scale: scale, frames: frames) {
                case .kept: continue
                case .sized(let next):
                    current = next
                    changed = true
                case .undocumented: undocumented = true
                case .tooLarge: return .tooLarge
                }
            }
            if undocumented { return .undocumented }
            return changed ? .sized(current) : .kept
        default:
            return .undocumented
        }
    }

    /// Whole pixel sides from floating point: undocumented when the pixels could not be allocated at all (their
    /// byte count beyond `Int`), too large when they could but are more than the harness allows.
    private static func pixelSize(_ width: Double, _ height: Double, frames: Int) -> Outcome {
        guard width >= 1, height >= 1 else { return .undocumented }
        if width * height * 4 >= 0x1p63 { return .undocumented }
        if width * height * Double(frames) > maxPixels { return .tooLarge }
        return .sized(PixelSize(width: Int(width), height: Int(height)))
    }
}
