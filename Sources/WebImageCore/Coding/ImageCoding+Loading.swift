#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageCoding {
    /// Decodes `data` as loads do (the cache, the loaders, the downloader): with
    /// ``ImageDecodeOptions/framesOnDemand`` an animation from a coder with frames on demand becomes an image
    /// holding its first frame and an ``AnimatedImage`` (all frames decoded first with
    /// ``ImageDecodeOptions/preloadsAllFrames``); anything else is an ordinary ``decode(_:options:)``. The
    /// options are recorded in ``Image/decodeOptions``.
    ///
    /// Runs on the calling thread.
    public func decodeForLoad(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        if options.framesOnDemand, !options.firstFrameOnly,
           let animated = try AnimatedImage.framesOnDemand(data: data, coder: self, options: options),
           animated.frameCount > 1 {
            if options.preloadsAllFrames { try animated.preloadAllFrames() }
            let first = try animated.framePool.loadFrame(at: 0)
            return Image(
                frames: [ImageFrame(pixels: first, duration: animated.duration(ofFrameAt: 0))],
                loopCount: animated.loopCount,
                scale: options.effectiveScale,
                format: animated.format,
                hasAlpha: animated.hasAlpha,
                decodeOptions: options,
                animation: animated
            )
        }
        return try decode(data, options: options).recording(decodeOptions: options)
    }
}
