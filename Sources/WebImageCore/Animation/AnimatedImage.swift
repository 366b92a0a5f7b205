#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An animation whose frames are decoded on demand from its data, as SDWebImage's `SDAnimatedImage`: a
/// 500-frame GIF stays 500 frames of data, not 500 bitmaps, until ``preloadAllFrames()`` asks for them.
///
/// The frames come from the coder's ``AnimatedImageProviding``; the ones decoded are kept in ``framePool``, one
/// pool for this image, shared by every ``AnimatedImagePlayer`` that plays it and bounded by a byte budget.
/// Loads return an animated image when ``ImageDecodeOptions/framesOnDemand`` is set (the context's
/// ``ImageContext/framesOnDemand``); the ``Image`` they deliver shows the first frame and carries this object in
/// ``Image/animation``.
///
/// ```swift
/// var context = ImageContext()
/// context.framesOnDemand = true
/// let image = try await manager.loadImage(url: url, context: context).image
/// if let animation = image.animation {
///     let frame7 = try animation.frame(at: 7)          // decoded now, or taken from the pool
/// }
/// ```
///
/// Thread-safe: every method may be called from any thread. Decoding runs on the calling thread (or on the
/// pool's fetch queue for a player's prefetch); there is nothing to cancel.
public final class AnimatedImage: Sendable {
    /// The frame source.
    public let provider: any AnimatedImageProviding
    /// The decoded frames kept for this image, shared by its players.
    public let framePool: AnimatedFramePool
    /// The options the frames are decoded with (thumbnail size and scale-down limit apply to every frame).
    public let decodeOptions: ImageDecodeOptions

    /// Creates an animated image over `provider`; players' prefetches decode on a serial queue of the pool's own.
    ///
    /// - Parameter decodeOptions: What the provider was made with; recorded for the cache's matching rules.
    public convenience init(provider: any AnimatedImageProviding, decodeOptions: ImageDecodeOptions = ImageDecodeOptions()) {
        self.init(provider: provider, decodeOptions: decodeOptions, fetchScheduler: .serialQueue())
    }

    /// Creates an animated image over `provider` whose players' prefetches decode on `fetchScheduler` (tests run
    /// them at once, or hold them).
    package init(
        provider: any AnimatedImageProviding,
        decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
        fetchScheduler: AnimatedFramePool.Scheduler
    ) {
        self.provider = provider
        self.decodeOptions = decodeOptions
        self.framePool = AnimatedFramePool(provider: provider, scheduler: fetchScheduler)
    }

    /// Creates an animated image from `data` with `coder` (a registry finds the coder for the data): frames on
    /// demand when the coder offers them, else, as SDWebImage's `SDAnimatedImage`, one frame decoded now, with a
    /// loop count of 0 and the data's format (``isAnimated`` is then false). Nil for empty data, or data that no
    /// coder recognises.
    ///
    /// Runs on the calling thread. Throws the coder's error when the data is recognised but cannot be decoded.
    public convenience init?(
        data: Data,
        coder: any ImageCoding,
        options: ImageDecodeOptions = ImageDecodeOptions()
    ) throws(WebImageError) {
        guard !data.isEmpty, let decoder = coder.decoder(for: data) else { return nil }
        let provider: any AnimatedImageProviding
        if let animated = decoder as? any AnimatedImageCoding {
            provider = try animated.makeAnimatedImageProvider(for: data, options: options)
        } else {
            // The first frame alone, decoded now (a still image has no other).
            var still = options
            still.firstFrameOnly = true
            still.framesOnDemand = false
            provider = DecodedFramesProvider(try decoder.decode(data, options: still).firstFrame, data: data)
        }
        self.init(provider: provider, decodeOptions: options)
    }

    /// An animated image whose frames `coder` decodes on demand from `data`; nil when no coder offers frames on
    /// demand for it, which is then decoded as usual (no still image is decoded here).
    package static func framesOnDemand(
        data: Data,
        coder: any ImageCoding,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> AnimatedImage? {
        guard let animated = coder.decoder(for: data) as? any AnimatedImageCoding else { return nil }
        let provider = try animated.makeAnimatedImageProvider(for: data, options: options)
        return AnimatedImage(provider: provider, decodeOptions: options)
    }

    /// The encoded data the frames come from.
    public var data: Data { provider.animatedImageData }
    /// The format of the data.
    public var format: ImageFormat { provider.format }
    /// The size of every frame.
    public var frameSize: PixelSize { provider.frameSize }
    /// The number of frames.
    public var frameCount: Int { provider.frameCount }
    /// How many times the animation plays; 0 means forever (and 0 for a still image).
    public var loopCount: Int { provider.loopCount }
    /// Whether there is more than one frame: false for a still image made from data no coder animates.
    public var isAnimated: Bool { provider.frameCount > 1 }
    /// Whether frames may be transparent.
    public var hasAlpha: Bool { provider.hasAlpha }
    /// Bytes of one decoded frame.
    public var frameByteCount: Int { frameSize.width * 4 * frameSize.height }

    /// How long frame `index` is shown, in seconds; 0 when `index` is out of range.
    public func duration(ofFrameAt index: Int) -> Double {
        provider.duration(ofFrameAt: index)
    }

    /// The sum of the frame durations, in seconds.
    public var totalDuration: Double {
        (0..<frameCount).reduce(0) { $0 + provider.duration(ofFrameAt: $1) }
    }

    /// Frame `index`: from the pool when it is there, else decoded now on the calling thread (and not added to
    /// the pool; players decide what the pool keeps).
    public func frame(at index: Int) throws(WebImageError) -> PixelBuffer {
        if let pooled = framePool.frame(at: index) { return pooled }
        return try provider.frame(at: index)
    }

    /// Decodes every frame now, on the calling thread, and keeps them all in the pool, whatever its budget,
    /// until ``unloadAllFrames()``. SDWebImage's `preloadAllFrames`.
    public func preloadAllFrames() throws(WebImageError) {
        try framePool.preloadAll()
    }

    /// Drops every decoded frame and gives the pool its budget back.
    public func unloadAllFrames() {
        framePool.removeAll()
    }

    /// Whether every frame is decoded and held.
    public var isAllFramesLoaded: Bool { framePool.isAllLoaded }

    /// Every frame decoded, as an ordinary ``Image`` whose frames are all in memory (for transformers and
    /// encoders, which need every frame). Frames already in the pool are reused.
    public func makeImage(scale: Double = 1) throws(WebImageError) -> Image {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            frames.append(ImageFrame(pixels: try frame(at: index), duration: duration(ofFrameAt: index)))
        }
        return Image(
            frames: frames,
            loopCount: loopCount,
            scale: scale,
            format: format,
            hasAlpha: hasAlpha,
            decodeOptions: decodeOptions
        )
    }
}
