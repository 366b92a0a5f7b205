import WebImageCore

extension DecodeMemoryEstimate {
    /// Adds what a ``PixelResampler`` from `source` to `target` holds: a row of box sums as wide as the source,
    /// a ring of filtered rows and the filter tables as wide and high as the target (at most 20 taps each),
    /// as floats. Nothing when the sizes are equal.
    mutating func addResampler(from source: PixelSize, to target: PixelSize) {
        guard source != target, !source.isEmpty, !target.isEmpty else { return }
        let bytes = DecodeMemoryEstimate.sum(
            DecodeMemoryEstimate.product(source.width, 16),
            DecodeMemoryEstimate.sum(DecodeMemoryEstimate.product(target.width, 400), DecodeMemoryEstimate.product(target.height, 256))
        )
        add("resampler", bytes: bytes)
    }
}
