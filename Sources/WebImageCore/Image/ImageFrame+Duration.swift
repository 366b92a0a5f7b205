extension ImageFrame {
    /// The duration a frame is shown for, from the delay its file gives: delays under 0.011 s become 0.1 s,
    /// as browsers and SDWebImage do (many files say 0 and mean "as fast as usual").
    public static func normalizedDuration(_ seconds: Double) -> Double {
        seconds.isFinite && seconds >= 0.011 ? seconds : 0.1
    }
}
