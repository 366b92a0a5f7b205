#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The frames of one WebP animation, decoded on demand by libwebp's animation decoder, or the one frame of a
/// still image, decoded once.
///
/// Thread-safe: the decoder sits behind a lock, and one frame is decoded at a time. Asking for frames in order
/// costs one composite each; asking for the same frame again costs nothing; asking for an earlier frame resets
/// the decoder and composites from the first frame again, since every canvas depends on the frames before it.
final class WebPAnimatedImageProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let frameSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool
    private let durations: [Double]
    private let state: Locked<State>

    private enum Source {
        /// A still image, decoded when the provider was made.
        case still(PixelBuffer)
        /// An animation composited by libwebp.
        case animation(WebPAnimationDecoder)
    }

    private struct State {
        let source: Source
        /// The frame handed out last, handed out again when it is asked for again.
        var last: (index: Int, pixels: PixelBuffer)?
    }

    var format: ImageFormat { .webp }

    /// Creates a provider that hands out the first `frameCount` frames `decoder` makes.
    init(data: Data, decoder: sending WebPAnimationDecoder, frameCount: Int) {
        let header = decoder.header
        animatedImageData = data
        frameSize = decoder.targetSize
        self.frameCount = frameCount
        loopCount = frameCount > 1 ? header.loopCount : 0
        hasAlpha = header.hasAlpha
        durations = header.durations.prefix(frameCount).map { ImageFrame.normalizedDuration(Double($0) / 1000) }
        self.state = Locked(State(source: .animation(decoder)))
    }

    /// Creates a provider of one frame: a still image, already decoded.
    init(data: Data, still image: Image) {
        animatedImageData = data
        frameSize = image.pixelSize
        frameCount = 1
        loopCount = 0
        hasAlpha = image.hasAlpha
        durations = [0]
        self.state = Locked(State(source: .still(image.pixels)))
    }

    func duration(ofFrameAt index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    /// The canvas at frame `index`, composited with the frames before it, in a new buffer of ``frameSize``.
    ///
    /// - Throws: `badImageData` when `index` is out of range or a frame up to it cannot be decoded;
    ///   `imageTooLarge` when the frame's memory cannot be had.
    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw .badImageData(.webp, "there is no frame \(index); the animation has \(frameCount)")
        }
        return try state.withLock { state throws(WebImageError) -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            switch state.source {
            case .still(let pixels):
                return pixels
            case .animation(let animation):
                state.last = nil
                if index < animation.nextIndex {
                    animation.reset()
                }
                while animation.nextIndex < index {
                    try animation.advance { _, _ in }
                }
                let pixels = try animation.advance { canvas, _ throws(WebImageError) in
                    try animation.makeFrame(from: canvas, reusing: nil)
                }
                state.last = (index, pixels)
                return pixels
            }
        }
    }
}
