#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The frames of one JPEG XL animation, decoded on demand by libjxl, or the one frame of a still image,
/// decoded once.
///
/// Thread-safe: the decoder sits behind a lock, and one frame is decoded at a time. Asking for frames in order
/// costs one frame's decode each; asking for the same frame again costs nothing; asking for an earlier frame
/// resets libjxl's decoder and skips to it (libjxl still reads the frames before it, but does not output them).
final class JXLAnimatedImageProvider: AnimatedImageProviding {
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
        /// An animation decoded by libjxl, with the scratch canvas of a reduced frame size.
        case animation(JXLFrameDecoder, scratch: PixelBuffer?)
    }

    private struct State {
        let source: Source
        /// The frame handed out last, handed out again when it is asked for again.
        var last: (index: Int, pixels: PixelBuffer)?
    }

    var format: ImageFormat { .jpegxl }

    /// Creates a provider that hands out the first `frameCount` frames `decoder` makes, at `frameSize`.
    init(data: Data, decoder: sending JXLFrameDecoder, frameSize: PixelSize, frameCount: Int) throws(WebImageError) {
        let header = decoder.header
        let canvas = decoder.canvasSize
        animatedImageData = data
        self.frameSize = frameSize
        self.frameCount = frameCount
        loopCount = frameCount > 1 ? header.loopCount : 0
        hasAlpha = header.hasAlpha
        durations = header.durations.prefix(frameCount).map { ImageFrame.normalizedDuration($0) }
        let scratch = try frameSize == canvas ? nil : PixelBuffer(uninitializedWidth: canvas.width, height: canvas.height)
        state = Locked(State(source: .animation(decoder, scratch: scratch)))
    }

    /// Creates a provider of one frame: a still image, already decoded.
    init(data: Data, still image: Image) {
        animatedImageData = data
        frameSize = image.pixelSize
        frameCount = 1
        loopCount = 0
        hasAlpha = image.hasAlpha
        durations = [0]
        state = Locked(State(source: .still(image.pixels)))
    }

    func duration(ofFrameAt index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    /// The canvas at frame `index`, in a new buffer of ``frameSize``.
    ///
    /// - Throws: `badImageData` when `index` is out of range or frame `index` cannot be decoded;
    ///   `imageTooLarge` when the frame's memory cannot be had.
    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw .badImageData(.jpegxl, "there is no frame \(index); the animation has \(frameCount)")
        }
        return try state.withLock { state throws(WebImageError) -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            switch state.source {
            case .still(let pixels):
                return pixels
            case .animation(let decoder, let scratch):
                state.last = nil
                try decoder.seek(to: index)
                let (pixels, _) = try JXLCoder.decodeFrame(decoder, target: frameSize, scratch: scratch)
                state.last = (index, pixels)
                return pixels
            }
        }
    }
}
