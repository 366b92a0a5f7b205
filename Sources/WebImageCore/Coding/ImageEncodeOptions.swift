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
    /// The most bytes the encoded file should take, as SDWebImage's `encodeMaxFileSize`; nil (or 0 or less) for
    /// no limit.
    ///
    /// Lossy encoders (JPEG, and WebP unless ``lossless``) meet it by searching, in place of ``quality``: the
    /// highest quality down to ``fileSizeQualityFloor`` whose file fits, found by bisection; when even that quality
    /// is too big, the image is scaled down step by step (each step guided by how far the last file was over)
    /// and the quality searched again at each size, so quality is given up before pixels are. Every attempt is
    /// a whole encode, so an encode under a limit costs up to about ten times an ordinary one at a size it fits.
    ///
    /// It is a hint, as in SDWebImage: when no size and quality fit (the limit is below what the format needs
    /// for a single pixel), the smallest file made is returned, and nothing is thrown; compare its count with the
    /// limit to tell. Lossless encoders (PNG, GIF, lossless WebP) ignore it. It applies after ``maxPixelSize``.
    public var maxFileSize: Int?
    /// Options for one coder, under keys of its own (for example `jxl.effort`): what SDWebImage's
    /// `SDImageCoderOptions` carry under keys that are not its own. Coders ignore keys they do not know.
    public var custom: [String: ImageCoderOptionValue] = [:]

    /// The lowest quality the ``maxFileSize`` search goes down to before it scales the image instead: below
    /// it, JPEG and WebP files shrink little and lose most of their detail.
    public static let fileSizeQualityFloor = 0.1

    /// Creates options with the defaults.
    public init() {}

    /// Creates options.
    public init(
        quality: Double = 1,
        maxPixelSize: PixelSize? = nil,
        backgroundColor: RGBAColor = .white,
        lossless: Bool = false,
        firstFrameOnly: Bool = false,
        maxFileSize: Int? = nil
    ) {
        self.quality = quality
        self.maxPixelSize = maxPixelSize
        self.backgroundColor = backgroundColor
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
        self.maxFileSize = maxFileSize
    }

    /// ``quality`` clamped to 0...1.
    public var clampedQuality: Double { min(1, max(0, quality.isNaN ? 1 : quality)) }

    /// ``maxFileSize`` when it sets a limit (above 0), else nil.
    public var fileSizeLimit: Int? {
        guard let maxFileSize, maxFileSize > 0 else { return nil }
        return maxFileSize
    }
}
