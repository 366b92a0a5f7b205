/// Flags that shape one image load, as SDWebImage's `SDWebImageOptions`, for the flags that mean something
/// without a user interface. The raw values are SDWebImage's bits.
public struct ImageOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Skip the failed-URL list; a success removes the URL from it.
    public static let retryFailed = ImageOptions(rawValue: 1 << 0)
    /// Load at low priority.
    public static let lowPriority = ImageOptions(rawValue: 1 << 1)
    /// Deliver partial images while the data arrives.
    public static let progressiveLoad = ImageOptions(rawValue: 1 << 2)
    /// Deliver the cached image, then revalidate with the server and deliver again if it changed.
    public static let refreshCached = ImageOptions(rawValue: 1 << 3)
    /// Send and store cookies.
    public static let handleCookies = ImageOptions(rawValue: 1 << 5)
    /// Accept any TLS certificate for this request.
    public static let allowInvalidSSLCertificates = ImageOptions(rawValue: 1 << 6)
    /// Load at high priority.
    public static let highPriority = ImageOptions(rawValue: 1 << 7)
    /// View binding: show the placeholder only when the load ends without an image.
    public static let delayPlaceholder = ImageOptions(rawValue: 1 << 8)
    /// Let the transformer run on animated images.
    public static let transformAnimatedImage = ImageOptions(rawValue: 1 << 9)
    /// View binding: do not set the image on the target.
    public static let avoidAutoSetImage = ImageOptions(rawValue: 1 << 10)
    /// Decode large images reduced to ``ImageDecodeOptions/defaultScaleDownLimitBytes``.
    public static let scaleDownLargeImages = ImageOptions(rawValue: 1 << 11)
    /// On a memory hit, read the disk data too (asynchronously unless ``queryMemoryDataSync``).
    public static let queryMemoryData = ImageOptions(rawValue: 1 << 12)
    /// With ``queryMemoryData``, read the data synchronously.
    public static let queryMemoryDataSync = ImageOptions(rawValue: 1 << 13)
    /// On a memory miss, read and decode the disk data synchronously, in the call.
    public static let queryDiskDataSync = ImageOptions(rawValue: 1 << 14)
    /// Never load; a cache miss ends the load.
    public static let fromCacheOnly = ImageOptions(rawValue: 1 << 15)
    /// Skip the cache query; still store the result.
    public static let fromLoaderOnly = ImageOptions(rawValue: 1 << 16)
    /// View binding: animate the transition even for cache hits.
    public static let forceTransition = ImageOptions(rawValue: 1 << 17)
    /// Decode only the first frame; a cached animation is handed out as its first frame.
    public static let decodeFirstFrameOnly = ImageOptions(rawValue: 1 << 19)
    /// Decode every frame of an animation ahead of time: with frames on demand (``ImageContext/framesOnDemand``),
    /// the ``AnimatedImage`` of an image read from disk or loaded holds every frame before it is delivered.
    public static let preloadAllFrames = ImageOptions(rawValue: 1 << 20)
    /// The result must be of the kind asked for: a cached first-frame-only decode of an animation counts as a
    /// miss, and so does, with frames on demand (``ImageContext/framesOnDemand``), an image decoded otherwise.
    public static let matchAnimatedImageClass = ImageOptions(rawValue: 1 << 21)
    /// Call the completion only after the result is stored in the cache, disk included.
    public static let waitStoreCache = ImageOptions(rawValue: 1 << 22)
    /// View binding: do not cancel the previous load for the same operation key.
    public static let avoidAutoCancelImage = ImageOptions(rawValue: 1 << 24)
    /// View binding: call the completion after the transition has ended.
    public static let waitTransition = ImageOptions(rawValue: 1 << 25)
}
