/// What an image's header says, read without decoding its pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The format.
    public var format: ImageFormat
    /// The size of the stored pixels (before orientation).
    public var pixelSize: PixelSize
    /// The number of frames; 1 for a still image.
    public var frameCount: Int
    /// How many times an animation plays; 0 means forever. 0 for a still image.
    public var loopCount: Int
    /// Whether the image may have transparent pixels.
    public var hasAlpha: Bool
    /// The EXIF orientation of the stored pixels.
    public var orientation: ImageOrientation

    /// Creates an info record.
    public init(
        format: ImageFormat,
        pixelSize: PixelSize,
        frameCount: Int = 1,
        loopCount: Int = 0,
        hasAlpha: Bool,
        orientation: ImageOrientation = .up
    ) {
        self.format = format
        self.pixelSize = pixelSize
        self.frameCount = frameCount
        self.loopCount = frameCount > 1 ? max(0, loopCount) : 0
        self.hasAlpha = hasAlpha
        self.orientation = orientation
    }

    /// The size once the orientation is applied.
    public var uprightSize: PixelSize { orientation.uprightSize(of: pixelSize) }
}

/// What a header read of the first bytes of some data found: the header, or how many bytes it needs.
///
/// ``ImageCoding/info(forPrefix:totalByteCount:)`` returns it, so that a caller holding a large file on disk
/// reads only what the header needs: a still image's header usually lies in its first few kilobytes, though a
/// JPEG's frame header may follow a large EXIF block, and an animation's frame records are spread through the
/// whole file.
///
/// ```swift
/// var prefix = try read(file, upToCount: min(size, 64 << 10))
/// while case .needsMoreBytes(let count) = try registry.info(forPrefix: prefix, totalByteCount: size) {
///     prefix = try read(file, upToCount: min(size, max(count, prefix.count * 2)))   // from the start
/// }
/// ```
public enum ImagePrefixInfo: Sendable, Hashable {
    /// The header, exactly as ``ImageCoding/info(for:)`` of the whole data gives it.
    case complete(ImageInfo)
    /// The header goes on past the bytes given: read at least `atLeast` bytes from the start (more than were
    /// given, at most the whole data) and ask again.
    case needsMoreBytes(atLeast: Int)
}
