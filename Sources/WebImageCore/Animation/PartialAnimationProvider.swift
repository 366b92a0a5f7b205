#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The frames a progressive decoder has completed so far, as a frame source: what a partial image of an animation
/// loaded with ``ImageDecodeOptions/framesOnDemand`` carries in ``Image/animation``, so that partial images are
/// animations as the final image is, their frame count growing as bytes arrive (SDWebImage's progressive
/// `SDAnimatedImage`). The frames were decoded once, by the load's one incremental decoder; this only hands them
/// out. Immutable.
final class PartialAnimationProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let format: ImageFormat
    let frameSize: PixelSize
    let loopCount: Int
    let hasAlpha: Bool
    private let frames: [ImageFrame]

    /// The frames of `partial`, decoded from `data`, the bytes received so far.
    init(_ partial: Image, data: Data) {
        animatedImageData = data
        format = partial.format
        frameSize = partial.pixelSize
        loopCount = partial.loopCount
        hasAlpha = partial.hasAlpha
        frames = partial.frames
    }

    var frameCount: Int { frames.count }

    func duration(ofFrameAt index: Int) -> Double {
        frames.indices.contains(index) ? frames[index].duration : 0
    }

    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard frames.indices.contains(index) else {
            throw WebImageError(.badImageData, "frame \(index) of a partial animation of \(frames.count) frames")
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
            animation: AnimatedImage(provider: PartialAnimationProvider(self, data: data), decodeOptions: options)
        )
    }
}
