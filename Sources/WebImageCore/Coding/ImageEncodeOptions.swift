/// How an encoder writes an image.
///
/// ```swift
/// let data = try registry.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.8))
/// ```
public struct ImageEncodeOptions: Sendable, Hashable {
    /// Lossy quality from 0 (smallest) to 1 (best), as SDWebImage's `encodeCompressionQuality`; default 1.
    public var quality: Double = 1
    /// Scale the image down to fit inside this size (aspect kept) before encoding; nil keeps the size.
    public var maxPixelSize: PixelSize?
    /// The colour laid under transparent pixels when the format has no alpha (JPEG); default white.
    public var backgroundColor: RGBAColor = .white
    /// Encode WebP losslessly.
    public var lossless: Bool = false
    /// Encode only the first frame of an animation.
    public var firstFrameOnly: Bool = false

    /// Creates options with the defaults.
    public init() {}

    /// Creates options.
    public init(
        quality: Double = 1,
        maxPixelSize: PixelSize? = nil,
        backgroundColor: RGBAColor = .white,
        lossless: Bool = false,
        firstFrameOnly: Bool = false
    ) {
        self.quality = quality
        self.maxPixelSize = maxPixelSize
        self.backgroundColor = backgroundColor
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
    }

    /// ``quality`` clamped to 0...1.
    public var clampedQuality: Double { min(1, max(0, quality.isNaN ? 1 : quality)) }
}
