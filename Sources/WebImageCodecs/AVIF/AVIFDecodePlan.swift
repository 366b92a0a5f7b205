import WebImageCore

/// The sizes and steps of one AVIF decode, worked out from the container before any pixel memory is allocated.
///
/// libavif 0.11 decodes only at full size, so every frame goes the same way:
/// 1. libavif decodes the AV1 planes and converts them to 8-bit RGBA at the stored size, straight into the
///    final buffer when nothing else is to be done, else into a scratch buffer; the pixel limit applies to
///    that full-size frame;
/// 2. when a thumbnail or scale-down is asked for, ``PixelResampler`` reduces it to the output size (stored
///    orientation);
/// 3. last, the small image is turned upright for its `irot`/`imir` transforms (unless the caller keeps the
///    stored orientation).
struct AVIFDecodePlan: Sendable, Hashable {
    /// The container's description.
    let header: AVIFHeader
    /// How many frames the decode makes.
    let frames: Int
    /// Whether the decode turns the pixels upright.
    let turnsUpright: Bool
    /// The size after resampling, stored orientation.
    let outputSize: PixelSize
    /// The peak memory of the decode.
    let memory: DecodeMemoryEstimate

    /// How the frames are held: all of them (a decode) or one at a time (a frame source).
    enum Holding {
        case allFrames
        case oneFrame
    }

    /// Works out the decode of the file `header` describes.
    ///
    /// - Parameters:
    ///   - fileByteCount: The size of the file, which the decoder copies.
    ///   - holding: Whether every frame is kept, for the pixel and memory limits.
    /// - Throws: `imageTooLarge` when the full-size frame libavif produces is over the pixel limit, the output is
    ///   over it (over all frames kept), there are more frames than ``ImageDecodeOptions/maxFrameCount``, or the
    ///   memory estimate is over the decode memory budget.
    init(header: AVIFHeader, fileByteCount: Int, holding: Holding, options: ImageDecodeOptions) throws(WebImageError) {
        self.header = header
        let orientation = header.orientation
        turnsUpright = !options.keepsOriginalOrientation && orientation != .up
        // The options size the image as it is delivered: upright, or as stored when the caller keeps that.
        let delivered = turnsUpright ? orientation.uprightSize(of: header.size) : header.size
        let target: PixelSize
        switch holding {
        case .allFrames:
            target = try options.targetSize(for: delivered, frameCount: header.frameCount, format: .avif)
        case .oneFrame:
            target = try options.frameSize(forCanvas: delivered, frameCount: header.frameCount, format: .avif)
        }
        // libavif converts every frame at full size before it can be reduced.
        try options.checkPixelLimit(header.size, format: .avif)
        frames = options.firstFrameOnly ? 1 : header.frameCount
        outputSize = turnsUpright && orientation.swapsWidthAndHeight ? target.transposed : target

        var memory = DecodeMemoryEstimate()
        memory.add("copy of the file", bytes: fileByteCount)
        // The AV1 decoder's picture, and for a sequence the reference frame it keeps for the next (encoders
        // usually refer to the frame before; AV1 allows up to 8).
        memory.add("decoded planes", bytes: DecodeMemoryEstimate.product(header.planeBytes, header.frameCount > 1 ? 2 : 1))
        let resamples = header.size != outputSize
        if resamples || turnsUpright {
            memory.add("full-size RGBA", pixels: header.size)
        }
        if resamples, turnsUpright {
            memory.add("reduced RGBA", pixels: outputSize)
        }
        memory.addResampler(from: header.size, to: outputSize)
        memory.add("output", pixels: outputSize, count: holding == .allFrames ? frames : 2)
        self.memory = memory
        try options.checkDecodeMemory(memory, format: .avif)
    }

    /// The size of the decoded frames: the output size, turned upright when the decode turns it.
    var finalSize: PixelSize {
        turnsUpright ? header.orientation.uprightSize(of: outputSize) : outputSize
    }

    /// Whether the decode needs a resampling pass after libavif's conversion.
    var resamples: Bool { header.size != outputSize }

    /// Whether libavif can convert straight into the final pixel buffer: no resampling and no turn.
    var decodesIntoFinalBuffer: Bool { !resamples && !turnsUpright }

    /// The orientation the decoded image reports: `up` when the pixels were turned upright, the stored one when
    /// the caller kept it.
    var reportedOrientation: ImageOrientation { turnsUpright ? .up : header.orientation }
}
