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

extension ImageFrame {
    /// The duration a frame is shown for, from the delay its file gives: delays under 0.011 s become 0.1 s,
    /// as browsers and SDWebImage do (many files say 0 and mean "as fast as usual").
    public static func normalizedDuration(_ seconds: Double) -> Double {
        seconds.isFinite && seconds >= 0.011 ? seconds : 0.1
    }
}
