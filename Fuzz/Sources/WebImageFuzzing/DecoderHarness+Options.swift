import Foundation
import WebImage

extension DecoderHarness {
    /// A thumbnail of up to 320 x 320 pixels, fitted or stretched, at the default limits.
    static func thumbnailOptions(using random: inout FuzzRandom) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(
            width: Int.random(in: 1...320, using: &random),
            height: Int.random(in: 1...320, using: &random)
        )
        options.preserveAspectRatio = Int.random(in: 0..<4, using: &random) != 0
        return options
    }

    /// One of the other ways to decode, at the default limits: the first frame as stored (EXIF orientation
    /// kept), under a scale-down limit, or with frames on demand (some preloaded).
    static func variantOptions(using random: inout FuzzRandom) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.scaleFactor = [1, 2, 3][Int.random(in: 0...2, using: &random)]
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            options.firstFrameOnly = true
            options.keepsOriginalOrientation = true
        case 1:
            // 0 is the default limit (60 MiB); the others reduce even small images.
            options.scaleDownLimitBytes = [0, 4, 4 << 10, 64 << 10, Int.random(in: 4...(1 << 20), using: &random)][
                Int.random(in: 0...4, using: &random)
            ]
            options.firstFrameOnly = Bool.random(using: &random)
        default:
            options.framesOnDemand = true
            options.preloadsAllFrames = Bool.random(using: &random)
        }
        return options
    }
}
