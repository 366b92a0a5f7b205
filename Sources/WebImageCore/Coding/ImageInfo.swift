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
