#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
import WebImageCore
#endif

/// Frames of one APNG decoded on demand, for ``PNGCoder/makeAnimatedImageProvider(for:options:)``.
///
/// Thread-safe: the compositor lives behind a lock, and decoding runs under it, so calls from several threads
/// are served one after another. Asking for the frame after the last one asked costs one frame's decode; asking
/// for the same frame again costs nothing; going back replays from frame 0. No caller code runs under the lock.
final class APNGImageProvider: AnimatedImageProviding {
    let animatedImageData: Data
    let frameSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool
    var format: ImageFormat { .png }

    private let durations: [Double]
    private let state: Locked<State>

    private enum Source {
        /// A still image, or only its first frame asked for: decoded once.
        case still(PixelBuffer)
        /// An animation played by a compositor.
        case animation(APNGCompositor)
    }

    private struct State {
        var source: Source
        /// The frame given out last, handed out again when it is asked for again.
        var last: (index: Int, pixels: PixelBuffer)?
    }

    /// A provider with one frame: a still image's.
    init(data: Data, still image: Image) {
        animatedImageData = data
        frameSize = image.pixelSize
        frameCount = 1
        loopCount = 0
        hasAlpha = image.hasAlpha
        durations = [0]
        state = Locked(State(source: .still(image.pixels)))
    }

    /// A provider that plays `compositor`'s animation; `frameCount` is all its frames or only the first.
    init(data: Data, compositor: sending APNGCompositor, frameCount: Int) {
        let animation = compositor.animation
        animatedImageData = data
        frameSize = compositor.targetSize
        self.frameCount = frameCount
        loopCount = frameCount > 1 ? animation.loopCount : 0
        hasAlpha = animation.mayBeTransparent
        durations = animation.frames.prefix(frameCount).map(\.duration)
        state = Locked(State(source: .animation(compositor)))
    }

    func duration(ofFrameAt index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw .badImageData(.png, "frame \(index) does not exist; the animation has \(frameCount)")
        }
        let data = animatedImageData
        return try state.withLock { state throws(WebImageError) -> PixelBuffer in
            if let last = state.last, last.index == index { return last.pixels }
            switch state.source {
            case .still(let pixels):
                return pixels
            case .animation(let compositor):
                do throws(WebImageError) {
                    if index < compositor.nextIndex { try compositor.rewind() }
                    let pixels = try data.withBytes { bytes throws(WebImageError) -> PixelBuffer in
                        // Frames before the one asked for are drawn without snapshots.
                        while compositor.nextIndex < index {
                            _ = try compositor.advance(bytes: bytes, capturing: false)
                        }
                        return try compositor.renderNext(bytes: bytes)
                    }
                    state.last = (index, pixels)
                    return pixels
                } catch {
                    // A half-drawn canvas must not be played on from.
                    state.last = nil
                    try? compositor.rewind()
                    throw error
                }
            }
        }
    }
}
