#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Frames decoded already, as a frame source that only hands them out. Two kinds of image use it:
/// - a still image given to ``AnimatedImage/init(data:coder:options:)`` by data that no coder offers frames on
///   demand for: one frame, loop count 0, its format, as SDWebImage's `SDAnimatedImage` decodes such data;
/// - a partial image of an animation loaded with ``ImageDecodeOptions/framesOnDemand``: the frames the load's one
///   incremental decoder has completed so far, so that partial images are animations as the final image is, their
///   frame count growing as bytes arrive (SDWebImage's progressive `SDAnimatedImage`).
///
/// Thread-safe: immutable.
final class DecodedFramesProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let format: ImageFormat
    let frameSize: PixelSize
    let loopCount: Int
    let hasAlpha: Bool
    private let frames: [ImageFrame]

    /// The frames of `image`, decoded from `data`.
    init(_ image: Image, data: Data) {
        animatedImageData = data
        format = image.format
        frameSize = image.pixelSize
        loopCount = image.loopCount
        hasAlpha = image.hasAlpha
        frames = image.frames
    }

    var frameCount: Int { frames.count }

    /// The frame's duration; 0 for a still image, which is not timed.
    func duration(ofFrameAt index: Int) -> Double {
        frames.indices.contains(index) ? frames[index].duration : 0
    }

    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard frames.indices.contains(index) else {
            throw .badImageData(format, "there is no frame \(index) among the \(frames.count) decoded")
        }
        return frames[index].pixels
    }
}

extension Image {
    /// This partial animation as an image with frames on demand over the frames decoded so far: the first frame
    /// in ``frames``, the rest in ``animation``; itself when it is a still image or already has an animation.
    func partialAnimation(data: Data, options: ImageDecodeOptions) -> Image {
        guard frames.count > 1, animation == nil else { return self }
        return Image(
            frames: [frames[0]],
            loopCount: loopCount,
            scale: scale,
            format: format,
            hasAlpha: hasAlpha,
            orientation: orientation,
            isIncremental: true,
            decodeOptions: options,
            animation: AnimatedImage(provider: DecodedFramesProvider(self, data: data), decodeOptions: options)
        )
    }
}
