#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A still image as a frame source of one frame: what ``AnimatedImage/init(data:coder:options:)`` makes of data
/// that no coder offers frames on demand for, as SDWebImage's `SDAnimatedImage` decodes such data as a static
/// image (one frame, loop count 0, its format).
///
/// Thread-safe: immutable after init. The frame is decoded once, when the provider is made.
final class StillImageProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let format: ImageFormat
    let frameSize: PixelSize
    let hasAlpha: Bool
    private let pixels: PixelBuffer

    /// Decodes the first frame of `data` with `coder` now, on the calling thread.
    init(data: Data, coder: any ImageCoding, options: ImageDecodeOptions) throws(WebImageError) {
        var still = options
        still.firstFrameOnly = true
        still.framesOnDemand = false
        let image = try coder.decode(data, options: still)
        animatedImageData = data
        format = image.format
        frameSize = image.pixelSize
        hasAlpha = image.hasAlpha
        pixels = image.pixels
    }

    var frameCount: Int { 1 }
    var loopCount: Int { 0 }

    /// 0: a still image is not timed.
    func duration(ofFrameAt index: Int) -> Double { 0 }

    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard index == 0 else { throw .badImageData(format, "there is no frame \(index); the image is still") }
        return pixels
    }
}
