#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CJXL
import WebImageCore

extension JXLCoder {
    /// The key of ``ImageEncodeOptions/custom`` for libjxl's effort, an `.int` from 1 (fastest) to 9 (smallest
    /// files); ``defaultEffort`` when absent or out of range.
    public static let effortKey = "jxl.effort"

    /// The effort used unless ``effortKey`` says otherwise: 3.
    ///
    /// libjxl's own default (7) spends seconds on a large photo, which a server encoding on request cannot
    /// afford; at 3 libjxl skips its slowest searches (adaptive quantisation iterations, most block-size
    /// choices) and encodes several times faster, for files a little larger at the same distance.
    public static let defaultEffort = 3

    /// Encodes `image` as JPEG XL: a still image, or an animation when the image has several frames.
    ///
    /// ``ImageEncodeOptions/quality`` becomes libjxl's distance (its butteraugli target) the way `cjxl -q`
    /// maps a quality: 0.9 is distance 1 (visually lossless), lower qualities larger distances up to 15; a
    /// quality of 1, or ``ImageEncodeOptions/lossless``, encodes losslessly (modular mode, every byte comes
    /// back). The effort is ``defaultEffort`` unless ``ImageEncodeOptions/custom`` carries ``effortKey``.
    /// ``ImageEncodeOptions/maxPixelSize`` scales the frames down first and ``ImageEncodeOptions/firstFrameOnly``
    /// writes only the first frame. Animations keep the frame durations (to the millisecond) and the loop
    /// count. ``ImageEncodeOptions/maxFileSize`` is not supported and is ignored.
    ///
    /// Runs on the caller's thread; libjxl is given no thread runner.
    ///
    /// - Throws: `unsupportedFormat` unless `format` is JPEG XL; `encodingFailed` when libjxl fails.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard canEncode(to: format) else {
            throw .unsupportedFormat(format, "encode")
        }
        let frames = try image.framesForEncoding(options, animated: true)
        return try JXLEncoder(options: options).encode(frames, loopCount: image.loopCount, hasAlpha: image.hasAlpha)
    }

    /// libjxl's distance for a quality from 0 to 1 below 1, as `cjxl -q` maps its 0 to 100: linear from
    /// distance 0.1 at 100 to 6.4 at 30, then growing fast, at most 15 (libjxl's largest).
    static func distance(forQuality quality: Double) -> Float {
        let q: Double = quality * 100
        let distance: Double
        if q >= 30 {
            distance = 0.1 + (100 - q) * 0.09
        } else {
            let growth: Double = pow(2.5 as Double, (30 - q) / 5)
            distance = 6.4 + growth / 6.25
        }
        return Float(min(15, max(0.1, distance)))
    }
}
