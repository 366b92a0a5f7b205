/// What a decoder produces: first frame or all, the size (thumbnail, scale-down limit), the limits it enforces.
///
/// The defaults decode every frame at full size, upright, and refuse images over 100 megapixels and decodes that
/// would hold more than 512 MiB.
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
    /// The decode memory budget used unless a caller sets another: 512 MiB.
    public static let defaultMaxDecodeMemory = 512 << 20
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
    /// decoding; PNG and GIF stream the rows of a still image into the resampler (an interlaced one is decoded
    /// whole into a reused scratch buffer first, within the pixel limit), so large sources are decoded reduced
    /// without a full-size buffer. Animations are composited at full size, then reduced frame by frame.
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
    /// The most memory, in bytes, one decode may hold at once, estimated from the headers before anything is
    /// allocated (see ``DecodeMemoryEstimate``): the output, the scratch buffers, and what the C library keeps
    /// besides the pixels, which the pixel limit does not see: libjpeg holds every coefficient of a progressive
    /// JPEG (2 bytes a sample, 3 bytes a pixel in 4:2:0 colour, 8 in CMYK), libwebp a whole 32-bit image for a
    /// lossless WebP, an animation a canvas at full size (and a copy of it for frames disposed to the previous
    /// state). A decode over it is refused with `imageTooLarge`, whose message gives the estimate and the budget.
    ///
    /// Every decode checks it: still images, thumbnails, progressive decoders (which give no partial images
    /// when those would not fit beside the final decode), and animation frame sources (for what they hold while
    /// they hand out one frame). 0 or less means no budget.
    ///
    /// The default, ``defaultMaxDecodeMemory`` (512 MiB), decodes any still PNG, GIF, upright baseline JPEG or
    /// opaque lossy WebP within the default pixel limit at full size (100 megapixels of output are 381 MiB); at
    /// full size it takes a progressive 4:2:0 JPEG up to about 75 megapixels, a JPEG turned for its EXIF
    /// orientation (from a scratch copy) or a lossless WebP up to about 65, a WebP with alpha up to about 59.
    /// Thumbnails of still images within the pixel limit all fit, but for progressive JPEGs with full-resolution
    /// colour: their coefficients alone take 6 bytes a pixel (4:4:4, up to about 89 megapixels) or 8 (CMYK, up
    /// to about 67). So it refuses the files whose few kilobytes would make a decoder take a gigabyte, such as a
    /// progressive CMYK JPEG of 10000 x 10000 pixels (763 MiB of coefficients, thumbnail or not).
    public var maxDecodeMemory: Int = ImageDecodeOptions.defaultMaxDecodeMemory
    /// Keep the pixels as stored and report the EXIF orientation in ``Image/orientation``, instead of turning
    /// them upright.
    public var keepsOriginalOrientation: Bool = false
    /// Decode an animation as an ``AnimatedImage`` whose frames are decoded when asked for, instead of every frame
    /// at once (SDWebImage's `animatedImageClass` set to `SDAnimatedImage`). The image then holds the first frame
    /// and carries the animation in ``Image/animation``. Coders without frames on demand decode as usual. The
    /// partial images of a progressive load are animations too, over the frames the load's one incremental decoder
    /// has completed so far, their count growing as bytes arrive: a GIF's frames complete one by one, while an
    /// animated WebP (which libwebp decodes only whole) has no partial images and an APNG's show its first frame.
    public var framesOnDemand: Bool = false
    /// With ``framesOnDemand``: decode every frame before the image is delivered and keep them (SDWebImage's
    /// `preloadAllFrames`).
    public var preloadsAllFrames: Bool = false
    /// Options of your own for a coder of your own, by name, as SDWebImage passes the keys of
    /// `SDWebImageContextImageDecodeOptions` it does not know through to coders. The library's coders ignore
    /// them; they are part of the options' identity, so decodes with different custom options are never shared,
    /// and they stay in ``Image/decodeOptions``.
    public var custom: [String: ImageCoderOptionValue] = [:]

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
        preloadsAllFrames: Bool = false,
        maxDecodeMemory: Int = ImageDecodeOptions.defaultMaxDecodeMemory
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
        self.maxDecodeMemory = maxDecodeMemory
    }

    /// Whether the caller asked for a reduced decode (a thumbnail size or a scale-down limit).
    public var requestsReduction: Bool {
        (thumbnailPixelSize.map { !$0.isEmpty } ?? false) || scaleDownLimitBytes != nil
    }

    /// The scale factor clamped to at least 1.
    public var effectiveScale: Double { scaleFactor >= 1 ? scaleFactor : 1 }
}

extension ImageDecodeOptions {
    /// Whether a decode whose peak memory is `estimate` is within ``maxDecodeMemory`` (always, without a budget).
    public func allowsDecodeMemory(_ estimate: DecodeMemoryEstimate) -> Bool {
        maxDecodeMemory <= 0 || estimate.totalBytes <= maxDecodeMemory
    }

    /// Throws `imageTooLarge` when a decode whose peak memory is `estimate` is over ``maxDecodeMemory``.
    ///
    /// Call it with the estimate worked out from the headers, before anything is allocated. The message names
    /// the format, the estimate with its largest parts, and the budget:
    /// `"JPEG: the decode would hold about 1,144 MiB (whole-image coefficients 763 MiB, output 381 MiB), over the
    /// decode memory budget of 512 MiB"`.
    public func checkDecodeMemory(_ estimate: DecodeMemoryEstimate, format: ImageFormat) throws(WebImageError) {
        guard !allowsDecodeMemory(estimate) else { return }
        throw WebImageError(
            .imageTooLarge,
            "\(format.name.uppercased()): the decode would hold about \(estimate), over the decode memory budget of "
                + "\(DecodeMemoryEstimate.format(bytes: maxDecodeMemory))"
        )
    }
}
