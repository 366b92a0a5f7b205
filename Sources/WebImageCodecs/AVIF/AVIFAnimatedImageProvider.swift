#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The frames of one AVIF image sequence, decoded on demand by libavif, or the one frame of a still image,
/// decoded once.
///
/// Thread-safe: the decoder sits behind a lock, and one frame is decoded at a time. Asking for frames in order
/// costs one decode each; asking for the same frame again costs nothing; asking for an earlier frame resets the
/// decoder and decodes from the first frame again, since AV1 frames refer to the frames before them.
final class AVIFAnimatedImageProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let frameSize: PixelSize
    let frameCount: Int
    let hasAlpha: Bool
    private let durations: [Double]
    private let state: Locked<State>

    private enum Source {
        /// A still image, decoded when the provider was made.
        case still(PixelBuffer)
        /// A sequence decoded by libavif, with the plan that sizes its frames.
        case sequence(AVIFDecoder, AVIFDecodePlan)
    }

    private struct State {
        let source: Source
        /// The frame handed out last, handed out again when it is asked for again.
        var last: (index: Int, pixels: PixelBuffer)?
    }

    var format: ImageFormat { .avif }

    /// libavif 0.11 does not read a sequence's loop count: every animation plays forever.
    var loopCount: Int { 0 }

    /// Creates a provider that hands out the first `plan.frames` frames `decoder` makes.
    init(data: Data, decoder: sending AVIFDecoder, plan: AVIFDecodePlan) {
        animatedImageData = data
        frameSize = plan.finalSize
        frameCount = plan.frames
        hasAlpha = plan.header.hasAlpha
        durations = (0..<plan.frames).map { ImageFrame.normalizedDuration(decoder.duration(ofFrameAt: $0)) }
        state = Locked(State(source: .sequence(decoder, plan)))
    }

    /// Creates a provider of one frame: a still image, already decoded.
    init(data: Data, still image: Image) {
        animatedImageData = data
        frameSize = image.pixelSize
        frameCount = 1
        hasAlpha = image.hasAlpha
        durations = [0]
        state = Locked(State(source: .still(image.pixels)))
    }

    func duration(ofFrameAt index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    /// Frame `index`, decoded after the frames before it, in a new buffer of ``frameSize``.
    ///
    /// - Throws: `badImageData` when `index` is out of range or a frame up to it cannot be decoded;
    ///   `imageTooLarge` when the frame's memory cannot be had.
    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw .badImageData(.avif, "there is no frame \(index); the animation has \(frameCount)")
        }
        return try state.withLock { state throws(WebImageError) -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            switch state.source {
            case .still(let pixels):
                return pixels
            case .sequence(let decoder, let plan):
                state.last = nil
                if index < decoder.nextIndex {
                    try decoder.reset()
                }
                while decoder.nextIndex < index {
                    try decoder.skipFrame()
                }
                let pixels = try decoder.nextFrame(plan)
                state.last = (index, pixels)
                return pixels
            }
        }
    }
}
