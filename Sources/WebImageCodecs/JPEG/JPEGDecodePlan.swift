/// The sizes and steps of one JPEG decode, worked out from the header before any pixel memory is allocated.
///
/// Sizes are in the stored orientation until the last step:
/// 1. the output size: the options' target for the upright image (thumbnail, scale-down limit), turned back
///    to the stored orientation;
/// 2. the DCT-scaled size: the smallest size libjpeg's scaling gives that still covers the output size on both
///    sides; the pixel limit applies to it, since it is what gets allocated (for a progressive or multi-scan
///    file the stored size too: libjpeg then holds the whole image's coefficients whatever the scaling);
/// 3. when the two differ, ``PixelResampler`` finishes the reduction;
/// 4. last, the small image is turned upright for its EXIF orientation (unless the caller keeps it).
///
/// The plan also estimates the decode's peak memory (``memory``) and checks it against the decode memory budget
/// before anything is allocated.
struct JPEGDecodePlan: Sendable, Hashable {
    /// The size of the stored pixels, from the frame header.
    let storedSize: PixelSize
    /// The EXIF orientation of the stored pixels.
    let orientation: ImageOrientation
    /// Whether the decode turns the pixels upright (false when the caller keeps the original orientation or
    /// there is nothing to turn).
    let turnsUpright: Bool
    /// The DCT scaling factor libjpeg decodes at.
    let factor: JPEGScalingFactor
    /// The size libjpeg decodes to, stored orientation.
    let scaledSize: PixelSize
    /// The size after resampling, stored orientation.
    let outputSize: PixelSize
    /// The bytes of the whole image's coefficients libjpeg keeps (0 when it decodes in one pass).
    let coefficientBytes: Int
    /// The bytes of libjpeg's row buffers.
    let rowBufferBytes: Int
    /// The peak memory of the one-shot decode: libjpeg's (its coefficients, its row buffers) and the coder's
    /// (the output and the scratch buffers of the resampling and turning).
    let memory: DecodeMemoryEstimate

    /// Works out the decode of an image of `storedSize` pixels with EXIF `orientation`.
    ///
    /// - Parameters:
    ///   - frame: The frame header (its components' sampling), for the memory estimate; without one, three
    ///     components at full resolution.
    ///   - needsWholeImageCoefficients: Whether libjpeg will buffer the whole image's coefficients (a
    ///     progressive or multi-scan file).
    /// - Throws: `imageTooLarge` when the decoded size is over the pixel limit without a reduction, when even
    ///   the DCT-scaled intermediate of a reduced decode is over it, when the stored size is over it and
    ///   libjpeg would buffer the whole image's coefficients, or when the memory estimate is over the decode
    ///   memory budget.
    init(
        storedSize: PixelSize,
        orientation: ImageOrientation,
        frame: JPEGFrameHeader? = nil,
        needsWholeImageCoefficients: Bool = false,
        options: ImageDecodeOptions
    ) throws(WebImageError) {
        self.storedSize = storedSize
        self.orientation = orientation
        turnsUpright = !options.keepsOriginalOrientation && orientation != .up
        let upright = orientation.uprightSize(of: storedSize)
        let target = try options.targetSize(for: upright, format: .jpeg)
        outputSize = orientation.swapsWidthAndHeight ? target.transposed : target
        (factor, scaledSize) = JPEGScalingFactor.smallest(scaling: storedSize, toCover: outputSize)
        try options.checkPixelLimit(scaledSize, format: .jpeg)
        if needsWholeImageCoefficients, options.maxPixelCount > 0, storedSize.pixelCount > options.maxPixelCount {
            throw WebImageError(
                .imageTooLarge,
                "JPEG: a progressive or multi-scan image of \(storedSize) pixels is over the limit of \(options.maxPixelCount) pixels even reduced, since libjpeg holds its whole coefficients"
            )
        }
        let header = frame ?? JPEGFrameHeader(size: storedSize, componentCount: 3, isProgressive: needsWholeImageCoefficients)
        coefficientBytes = needsWholeImageCoefficients ? header.coefficientBytes(for: storedSize) : 0
        rowBufferBytes = header.rowBufferBytes(outputWidth: scaledSize.width, outputHeight: scaledSize.height)
        var memory = DecodeMemoryEstimate()
        memory.add("whole-image coefficients", bytes: coefficientBytes)
        memory.add("libjpeg's row buffers", bytes: rowBufferBytes)
        let turnedSize = turnsUpright ? orientation.uprightSize(of: outputSize) : outputSize
        memory.add("output", pixels: turnedSize)
        if scaledSize != outputSize || turnsUpright {
            memory.add("scratch", pixels: scaledSize)
        }
        if scaledSize != outputSize, turnsUpright {
            memory.add("scratch", pixels: outputSize)
        }
        memory.addResampler(from: scaledSize, to: outputSize)
        self.memory = memory
        try options.checkDecodeMemory(memory, format: .jpeg)
    }

    /// The size of the decoded image: the output size, turned upright when the decode turns it.
    var finalSize: PixelSize {
        turnsUpright ? orientation.uprightSize(of: outputSize) : outputSize
    }

    /// Whether the decode needs a resampling pass after the DCT scaling.
    var resamples: Bool { scaledSize != outputSize }

    /// Whether libjpeg can write straight into the final pixel buffer: no resampling and no turn.
    var decodesIntoFinalBuffer: Bool { !resamples && !turnsUpright }

    /// The orientation the decoded image reports: `up` when the pixels were turned upright, the EXIF
    /// orientation when the caller kept the stored pixels.
    var reportedOrientation: ImageOrientation { turnsUpright ? .up : orientation }
}
