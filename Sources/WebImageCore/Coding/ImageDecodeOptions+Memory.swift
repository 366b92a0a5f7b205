extension ImageDecodeOptions {
    /// Whether a decode whose peak memory is `estimate` is within ``maxDecodeMemory`` (always, without a budget).
    public func allowsDecodeMemory(_ estimate: DecodeMemoryEstimate) -> Bool {
        maxDecodeMemory <= 0 || estimate.totalBytes <= maxDecodeMemory
    }

    /// Throws `imageTooLarge` when a decode whose peak memory is `estimate` is over ``maxDecodeMemory``.
    ///
    /// Call it with the estimate worked out from the headers, before anything is allocated. The message names
    /// the format, the estimate with its largest parts, and the budget:
    /// `"JPEG: the decode would hold about 1,144 MiB (whole-image coefficients 763 MiB, output 381 MiB), over the
    /// decode memory budget of 512 MiB"`.
    public func checkDecodeMemory(_ estimate: DecodeMemoryEstimate, format: ImageFormat) throws(WebImageError) {
        guard !allowsDecodeMemory(estimate) else { return }
        throw WebImageError(
            .imageTooLarge,
            "\(format.name.uppercased()): the decode would hold about \(estimate), over the decode memory budget of "
                + "\(DecodeMemoryEstimate.format(bytes: maxDecodeMemory))"
        )
    }
}
