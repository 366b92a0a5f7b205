/// What a decoder produces: first frame or all, the size (thumbnail, scale-down limit), the limits it enforces.
///
/// The defaults decode every frame at full size, upright, and refuse images over 100 megapixels.
///
/// ```swift
/// var options = ImageDecodeOptions()
/// options.thumbnailPixelSize = PixelSize(square: 256)   // decoded reduced: a JPEG never becomes full size
/// let thumbnail = try registry.decode(data, options: options)
/// ```
public struct ImageDecodeOptions: Sendable, Hashable {
    /// The pixel limit used unless a caller sets another: 100 megapixels.
    public static let defaultMaxPixelCount = 100_000_000
    /// SDWebImage's default scale-down limit on iOS: 60 MiB of decoded pixels.
    public static let defaultScaleDownLimitBytes = 62_914_560
    /// The frame limit used unless a caller sets another.
    public static let defaultMaxFrameCount = 10_000
    /// How many times ``maxPixelCount`` a reduced decode may read: a thumbnail of a source up to 16 times the
    /// pixel limit (1.6 gigapixels by default) is made, a larger one refused, so that a few compressed bytes
    /// cannot keep a thread busy for minutes.
    public static let reducedSourceFactor = 16

    /// Decode only the first frame of an animation.
    public var firstFrameOnly: Bool = false
    /// The image's logical scale (points per pixel side); values below 1 count as 1. Pixels are not changed.
    public var scaleFactor: Double = 1
    /// With a thumbnail size: fit inside it keeping the aspect ratio (true), or stretch to it (false).
    public var preserveAspectRatio: Bool = true
    /// Decode to at most this size (never larger than the image). JPEG uses DCT scaling and WebP libwebp's scaled
    /// decoding; PNG and GIF decode sources within the pixel limit whole into a reused scratch buffer and larger
    /// ones row by row, so large sources are decoded reduced without a full-size buffer.
    public var thumbnailPixelSize: PixelSize?
    /// Decode to at most this many bytes of pixels (4 a pixel, over all frames), with SDWebImage's algorithm;
    /// 0 means ``defaultScaleDownLimitBytes``; nil means no limit.
    public var scaleDownLimitBytes: Int?
    /// The most pixels a decode may produce, over all frames; checked from the header before any pixel buffer is
    /// allocated. With a thumbnail size or a scale-down limit, a larger source is decoded reduced when the coder
    /// can do that without a full-size buffer (up to ``reducedSourceFactor`` times this many source pixels over
    /// all frames), and refused otherwise. 0 or less means no limit.
    public var maxPixelCount: Int = ImageDecodeOptions.defaultMaxPixelCount
    /// The most frames an animated decode may produce; an animation with more is refused with `imageTooLarge`
    /// before any frame is decoded. A first-frame decode is always allowed. 0 or less means no limit.
    public var maxFrameCount: Int = ImageDecodeOptions.defaultMaxFrameCount
    /// Keep the pixels as stored and report the EXIF orientation in ``Image/orientation``, instead of turning
    /// them upright.
    public var keepsOriginalOrientation: Bool = false
    /// Decode an animation as an ``AnimatedImage`` whose frames are decoded when asked for, instead of every frame
    /// at once (SDWebImage's `animatedImageClass` set to `SDAnimatedImage`). The image then holds the first frame
    /// and carries the animation in ``Image/animation``. Coders without frames on demand decode as usual.
    public var framesOnDemand: Bool = false
    /// With ``framesOnDemand``: decode every frame before the image is delivered and keep them (SDWebImage's
    /// `preloadAllFrames`).
    public var preloadsAllFrames: Bool = false

    /// Creates options with the defaults.
    public init() {}

    /// Creates options.
    public init(
        firstFrameOnly: Bool = false,
        scaleFactor: Double = 1,
        preserveAspectRatio: Bool = true,
        thumbnailPixelSize: PixelSize? = nil,
        scaleDownLimitBytes: Int? = nil,
        maxPixelCount: Int = ImageDecodeOptions.defaultMaxPixelCount,
        maxFrameCount: Int = ImageDecodeOptions.defaultMaxFrameCount,
        keepsOriginalOrientation: Bool = false,
        framesOnDemand: Bool = false,
        preloadsAllFrames: Bool = false
    ) {
        self.firstFrameOnly = firstFrameOnly
        self.scaleFactor = scaleFactor
        self.preserveAspectRatio = preserveAspectRatio
        self.thumbnailPixelSize = thumbnailPixelSize
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
        self.keepsOriginalOrientation = keepsOriginalOrientation
        self.framesOnDemand = framesOnDemand
        self.preloadsAllFrames = preloadsAllFrames
    }

    /// Whether the caller asked for a reduced decode (a thumbnail size or a scale-down limit).
    public var requestsReduction: Bool {
        (thumbnailPixelSize.map { !$0.isEmpty } ?? false) || scaleDownLimitBytes != nil
    }

    /// The scale factor clamped to at least 1.
    public var effectiveScale: Double { scaleFactor >= 1 ? scaleFactor : 1 }
}
