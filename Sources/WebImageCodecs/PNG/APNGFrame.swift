/// One frame of an APNG: its `fcTL` frame control and where its compressed image data lies.
struct APNGFrame: Sendable {
    /// The frame's size in pixels.
    let size: PixelSize
    /// Where the frame sits on the canvas.
    let x: Int
    let y: Int
    /// The delay before the next frame: `delayNumerator / delayDenominator` seconds (a denominator of 0
    /// means 100).
    let delayNumerator: UInt16
    let delayDenominator: UInt16
    /// What happens to the frame's region after it was shown.
    let disposal: AnimationCanvas.Disposal
    /// How the frame's pixels combine with the canvas.
    let blend: AnimationCanvas.Blend
    /// Whether this frame is the default image (the `IDAT` data), as when its `fcTL` precedes the `IDAT`.
    var isDefaultImage = false
    /// The compressed data: the data of the `IDAT` chunks, or of the `fdAT` chunks without their sequence
    /// numbers, as offsets from the file's start.
    var dataRanges: [Range<Int>] = []

    /// The frame's rectangle on the canvas.
    var rect: AnimationCanvas.Rect {
        AnimationCanvas.Rect(x: x, y: y, width: size.width, height: size.height)
    }

    /// How long the frame is shown, in seconds, normalised as browsers do (under 0.011 s becomes 0.1 s).
    var duration: Double {
        let denominator = delayDenominator == 0 ? 100 : Double(delayDenominator)
        return ImageFrame.normalizedDuration(Double(delayNumerator) / denominator)
    }

    /// Reads an `fcTL` chunk (after its sequence number has been checked) and checks that the frame lies
    /// inside a canvas of `canvas` pixels.
    ///
    /// - Throws: `badImageData` for a wrong length, an empty frame, a frame outside the canvas, or an unknown
    ///   disposal or blend operation.
    init(control chunk: PNGChunk, in bytes: UnsafeRawBufferPointer, canvas: PixelSize) throws(WebImageError) {
        guard chunk.data.count == 26 else {
            throw .badImageData(.png, "an fcTL chunk has \(chunk.data.count) bytes instead of 26")
        }
        let at = chunk.data.lowerBound
        let width = Int(bytes.bigEndianUInt32(at: at + 4))
        let height = Int(bytes.bigEndianUInt32(at: at + 8))
        let x = Int(bytes.bigEndianUInt32(at: at + 12))
        let y = Int(bytes.bigEndianUInt32(at: at + 16))
        guard width > 0, height > 0 else {
            throw .badImageData(.png, "an APNG frame is empty (\(width) x \(height) pixels)")
        }
        guard x + width <= canvas.width, y + height <= canvas.height else {
            throw .badImageData(
                .png,
                "an APNG frame of \(width) x \(height) pixels at (\(x), \(y)) lies outside the \(canvas) canvas"
            )
        }
        let dispose = bytes[at + 24]
        let blend = bytes[at + 25]
        switch dispose {
        case 0: disposal = .none
        case 1: disposal = .background
        case 2: disposal = .previous
        default: throw .badImageData(.png, "an APNG frame has the unknown dispose operation \(dispose)")
        }
        switch blend {
        case 0: self.blend = .source
        case 1: self.blend = .over
        default: throw .badImageData(.png, "an APNG frame has the unknown blend operation \(blend)")
        }
        self.size = PixelSize(width: width, height: height)
        self.x = x
        self.y = y
        delayNumerator = bytes.bigEndianUInt16(at: at + 20)
        delayDenominator = bytes.bigEndianUInt16(at: at + 22)
    }
}
