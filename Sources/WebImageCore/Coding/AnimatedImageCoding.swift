#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coder that can hand out an animation frame by frame instead of all at once, as SDWebImage's
/// `SDAnimatedImageCoder`, so that a player keeps only a few frames in memory.
public protocol AnimatedImageCoding: ImageCoding {
    /// A frame source over `data`, or an error when the data is not an image this coder decodes.
    ///
    /// The thumbnail size and scale-down limit of `options` apply to every frame. With
    /// ``ImageDecodeOptions/firstFrameOnly`` the provider has one frame. The limits are those of
    /// ``ImageDecodeOptions/frameSize(forCanvas:frameCount:format:)``: the provider holds one frame at a time.
    func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding
}

/// Frames of one animation, decoded on demand, as SDWebImage's `SDAnimatedImageProvider`.
///
/// Thread-safe: calls may come from any thread; the provider serialises decoding internally. Asking for frames
/// in order is cheapest; going back restarts decoding from the first frame.
public protocol AnimatedImageProviding: AnyObject, Sendable {
    /// The encoded data.
    var animatedImageData: Data { get }
    /// The format of the data.
    var format: ImageFormat { get }
    /// The size of every frame.
    var frameSize: PixelSize { get }
    /// The number of frames.
    var frameCount: Int { get }
    /// How many times the animation plays; 0 means forever.
    var loopCount: Int { get }
    /// Whether frames may be transparent.
    var hasAlpha: Bool { get }

    /// How long frame `index` is shown, in seconds; 0 when `index` is out of range.
    func duration(ofFrameAt index: Int) -> Double

    /// The full canvas at frame `index`, composited with the frames before it, at ``frameSize``.
    ///
    /// The buffer is the caller's to keep; asking for the same frame again may return the same buffer.
    func frame(at index: Int) throws(WebImageError) -> PixelBuffer
}
