import WebImage

/// Every target, in the order `Scripts/fuzz.sh` runs them. A coder added to the library (AVIF, HEIF, JPEG XL)
/// gets its decoder target with one line here, and its round-trip target with another.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        DecoderHarness.target(JPEGCoder(), format: .jpeg),
        DecoderHarness.target(PNGCoder(), format: .png),
        DecoderHarness.target(WebPCoder(), format: .webp),
        DecoderHarness.target(GIFCoder(), format: .gif),
        DecoderHarness.target(AVIFCoder(), format: .avif),
        DecoderHarness.target(HEIFCoder(), format: .heif, otherFormats: [.heic]),
        DecoderHarness.target(JXLCoder(), format: .jpegxl),
        EncoderHarness.target(JPEGCoder(), format: .jpeg, fidelity: .lossy, animates: false),
        EncoderHarness.target(PNGCoder(), format: .png, fidelity: .lossless, animates: true),
        EncoderHarness.target(WebPCoder(), format: .webp, fidelity: .losslessOnRequest, animates: true, mergesFrames: true),
        EncoderHarness.target(GIFCoder(), format: .gif, fidelity: .palette, animates: true),
        TransformChainHarness.target,
        TransformerHarness.target,
        ResponseHeaderHarness.target,
        LoopbackResponseHarness.target,
        DiskCacheKeyHarness.target,
    ]
}
