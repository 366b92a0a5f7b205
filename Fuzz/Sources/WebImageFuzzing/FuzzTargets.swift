import WebImage

/// Every target, in the order `Scripts/fuzz.sh` runs them. A coder added to the library (AVIF, HEIF, JPEG XL)
/// gets its decoder target with one line here.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        DecoderHarness.target(JPEGCoder(), format: .jpeg),
        DecoderHarness.target(PNGCoder(), format: .png),
        DecoderHarness.target(WebPCoder(), format: .webp),
        DecoderHarness.target(GIFCoder(), format: .gif),
    ]
}
