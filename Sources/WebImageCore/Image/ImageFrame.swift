/// One frame of an image: its pixels and how long it is shown.
public struct ImageFrame: Sendable {
    /// The frame's pixels, the full canvas of the animation (already composited with earlier frames).
    public let pixels: PixelBuffer
    /// How long the frame is shown, in seconds; 0 for a still image.
    public let duration: Double

    /// Creates a frame.
    public init(pixels: PixelBuffer, duration: Double) {
        self.pixels = pixels
        self.duration = duration
    }
}
