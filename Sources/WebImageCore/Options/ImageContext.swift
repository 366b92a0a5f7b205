#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Per-load settings that are not flags, as SDWebImage's context dictionary, with a typed field for each key
/// and an open store for extensions.
///
/// ```swift
/// var context = ImageContext()
/// context.thumbnailPixelSize = PixelSize(square: 128)
/// context.callbackQueue = .main
/// ```
public struct ImageContext: Sendable {
    /// The key under which a view binding keeps and cancels its load (SDWebImage's `setImageOperationKey`); a
    /// ``WebImageTarget`` uses its type name when this is nil.
    public var operationKey: String?
    /// The cache to use instead of the manager's.
    public var imageCache: (any ImageCaching)?
    /// The cache for original (untransformed, full-size) images, when it differs from ``imageCache``.
    public var originalImageCache: (any ImageCaching)?
    /// The coder to use instead of the manager's registry.
    public var imageCoder: (any ImageCoding)?
    /// The loader to use instead of the manager's.
    public var imageLoader: (any ImageLoading)?
    /// Rewrites or refuses the request before it is sent.
    public var requestModifier: ImageRequestModifier?
    /// Rewrites or refuses the response before it is checked.
    public var responseModifier: ImageResponseModifier?
    /// Turns the response body into image data before decoding.
    public var decryptor: ImageDataDecryptor?
    /// The validators of a cached copy, to make the request conditional.
    public var revalidation: ImageRevalidation?
    /// Base decode options, as SDWebImage's `imageDecodeOptions`: the fields below override the same settings,
    /// and ``ImageDecodeOptions/custom`` reaches the coder untouched.
    public var decodeOptions: ImageDecodeOptions?
    /// The image's scale; values below 1 are ignored (the scale then comes from an `@2x`/`@3x` key).
    public var scaleFactor: Double?
    /// With a thumbnail size: fit (true, the default) or stretch.
    public var preserveAspectRatio: Bool?
    /// Decode to fit this size; part of the cache key.
    public var thumbnailPixelSize: PixelSize?
    /// A format hint for the decoder (a file extension or MIME type).
    public var typeIdentifierHint: String?
    /// Decode to at most this many bytes of pixels; not part of the cache key.
    public var scaleDownLimitBytes: Int?
    /// Deliver animations as ``AnimatedImage``s with frames decoded on demand (SDWebImage's `animatedImageClass`);
    /// not part of the cache key. See ``ImageDecodeOptions/framesOnDemand``.
    public var framesOnDemand: Bool?
    /// Options for encoding an image that has no data of its own: a thumbnail or transformed image stored on disk,
    /// a variant made by ``ImageManager/loadImageData(url:options:context:completion:)``. Without them such
    /// images are encoded at the manager's ``ImageManager/derivedImageQuality``.
    public var encodeOptions: ImageEncodeOptions?
    /// The format of the bytes ``ImageManager/loadImageData(url:options:context:completion:)`` returns (see
    /// ``ImageFormat/preferred(forAccept:hasAlpha:isAnimated:prefersAVIF:canEncode:)``); nil keeps the image's own: the
    /// original's bytes as they are when nothing is derived. Part of the variant's key.
    public var encodedFormat: ImageFormat?
    /// Which tiers to query for the key; default all.
    public var queryCacheType: ImageCacheType?
    /// Where to store the result; default all.
    public var storeCacheType: ImageCacheType?
    /// Which tiers to query for the original key after a miss of a thumbnail or transformed key; default disk.
    public var originalQueryCacheType: ImageCacheType?
    /// Where to store the original image of a thumbnail or transformed load; default disk.
    public var originalStoreCacheType: ImageCacheType?
    /// Where completions run; default ``CallbackQueue/default``.
    public var callbackQueue: CallbackQueue?
    /// The transformer to run after the load, in place of the manager's; part of the cache key.
    public var imageTransformer: (any ImageTransforming)?
    /// Runs no transformer at all, not even the manager's (SDWebImage's `NSNull` transformer).
    public var disablesTransformer = false
    /// Turns a URL into its cache key, in place of the manager's filter.
    public var cacheKeyFilter: ImageCacheKeyFilter?
    /// Chooses the bytes written to the disk cache, in place of the manager's serializer.
    public var cacheSerializer: ImageCacheSerializer?

    /// Values for keys this struct has no field for.
    public var values: [Key: any Sendable] = [:]

    /// A key for an extension value.
    public struct Key: Hashable, Sendable, RawRepresentable {
        public let rawValue: String
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }

    /// An empty context.
    public init() {}

    /// The value stored under an extension key.
    public subscript(key: Key) -> (any Sendable)? {
        get { values[key] }
        set { values[key] = newValue }
    }
}

extension ImageContext {
    /// The decode options a load with `options` and this context uses for `cacheKey`, as SDWebImage's
    /// `SDGetDecodeOptionsFromContext`: the context's base options, then first frame only from the flag, the
    /// scale (the context's when at least 1, else from an `@2x.`/`@3x.` key), the aspect-ratio rule, the
    /// thumbnail size, and the scale-down limit (the context's, else the default with `scaleDownLargeImages`);
    /// then frames on demand from the context, and their preloading from `preloadAllFrames`.
    public func decodeOptions(for options: ImageOptions, cacheKey: String?) -> ImageDecodeOptions {
        var result = decodeOptions ?? ImageDecodeOptions()
        if options.contains(.decodeFirstFrameOnly) { result.firstFrameOnly = true }
        if let scale = scaleFactor, scale >= 1 {
            result.scaleFactor = scale
        } else if let cacheKey {
            result.scaleFactor = ImageCacheKeys.scaleFactor(forKey: cacheKey)
        }
        if let preserveAspectRatio { result.preserveAspectRatio = preserveAspectRatio }
        if let thumbnailPixelSize, !thumbnailPixelSize.isEmpty { result.thumbnailPixelSize = thumbnailPixelSize }
        if let scaleDownLimitBytes {
            result.scaleDownLimitBytes = scaleDownLimitBytes
        } else if options.contains(.scaleDownLargeImages) {
            result.scaleDownLimitBytes = ImageDecodeOptions.defaultScaleDownLimitBytes
        }
        if let framesOnDemand { result.framesOnDemand = framesOnDemand }
        if options.contains(.preloadAllFrames) { result.preloadsAllFrames = true }
        return result
    }
}

/// Turns a URL into its cache key, as SDWebImage's `SDWebImageCacheKeyFilter` (to drop a signed query string,
/// say). Called on the thread that starts the load; must be fast and thread-safe.
public typealias ImageCacheKeyFilter = @Sendable (URL) -> String

/// Chooses the bytes the disk cache stores for a loaded image, as SDWebImage's `SDWebImageCacheSerializer`:
/// `(image, data, url)`, where `data` is what was loaded (nil for a thumbnail or a transformed image). Returning nil
/// lets the cache encode the image. Runs on the decode executor.
public typealias ImageCacheSerializer = @Sendable (Image, Data?, URL) -> Data?

/// Rewrites a load's options and context before anything else happens, as SDWebImage's
/// `SDWebImageOptionsProcessor`; nil keeps them. Called on the thread that starts the load.
public typealias ImageOptionsProcessor = @Sendable (URL?, ImageOptions, ImageContext) -> (ImageOptions, ImageContext)?
