/// What a JPEG's start-of-frame segment says about its components: enough to know the memory libjpeg takes
/// before it takes it.
///
/// libjpeg keeps the coefficients of the whole image while it decodes a progressive file, or a sequential one
/// whose first scan does not hold every component (its `has_multiple_scans`): for each component, its blocks of
/// 8 x 8 samples, padded to a whole number of MCUs, each 64 coefficients of 2 bytes. That is 2 bytes a sample:
/// 3 bytes a pixel in 4:2:0 colour, 6 in 4:4:4, 8 in CMYK, whatever the DCT scaling of the output.
struct JPEGFrameHeader: Sendable, Hashable {
    /// How one component is sampled, relative to the others.
    struct Component: Sendable, Hashable {
        /// Horizontal and vertical sampling factors, 1 to 4.
        var horizontal: Int
        var vertical: Int
    }

    /// The size the frame header declares.
    let size: PixelSize
    /// The components, in frame order.
    let components: [Component]
    /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14).
    let isProgressive: Bool

    /// Reads a start-of-frame segment's payload (after its length); nil when it is too short for the component
    /// count it declares.
    init?(marker: UInt8, payload: UnsafeRawBufferPointer) {
        guard payload.count >= 6 else { return nil }
        let count = Int(payload[5])
        guard count > 0, payload.count >= 6 + 3 * count else { return nil }
        size = PixelSize(
            width: Int(payload[3]) << 8 | Int(payload[4]),
            height: Int(payload[1]) << 8 | Int(payload[2])
        )
        components = (0..<count).map { index in
            let sampling = payload[6 + 3 * index + 1]
            // libjpeg refuses factors outside 1...4; clamped here only to keep the arithmetic bounded.
            return Component(horizontal: min(4, max(1, Int(sampling >> 4))), vertical: min(4, max(1, Int(sampling & 0x0F))))
        }
        isProgressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
    }

    /// A header for a file whose start-of-frame segment was not read: `count` components at full resolution,
    /// the most a frame of that size can take.
    init(size: PixelSize, componentCount count: Int, isProgressive: Bool) {
        self.size = size
        components = Array(repeating: Component(horizontal: 1, vertical: 1), count: max(1, count))
        self.isProgressive = isProgressive
    }

    /// Whether `marker` starts a frame (SOF0 to SOF15, except DHT, JPG and DAC, which share the range).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The bytes of libjpeg's whole-image coefficient arrays for an image of `size` (the size TurboJPEG reads,
    /// which is this header's): per component, its blocks rounded up to whole multiples of its sampling factors,
    /// 128 bytes each.
    func coefficientBytes(for size: PixelSize) -> Int {
        let maxH = components.map(\.horizontal).max() ?? 1
        let maxV = components.map(\.vertical).max() ?? 1
        var total = 0
        for component in components {
            let blocksWide = Self.roundUp(
                Self.divideRoundingUp(DecodeMemoryEstimate.product(size.width, component.horizontal), maxH * 8),
                component.horizontal
            )
            let blocksHigh = Self.roundUp(
                Self.divideRoundingUp(DecodeMemoryEstimate.product(size.height, component.vertical), maxV * 8),
                component.vertical
            )
            total = DecodeMemoryEstimate.sum(total, DecodeMemoryEstimate.product(blocksWide, blocksHigh, 128))
        }
        return total
    }

    /// libjpeg's row buffers for an output `width` pixels wide: for each component a few MCU rows of samples
    /// (with the context rows of smooth upsampling), the upsampler's rows, and TurboJPEG's row pointers for
    /// `height` rows. Generous: a small part of any decode.
    func rowBufferBytes(outputWidth width: Int, outputHeight height: Int) -> Int {
        let maxV = components.map(\.vertical).max() ?? 1
        let paddedWidth = DecodeMemoryEstimate.sum(width, 64)
        let perComponent = DecodeMemoryEstimate.product(paddedWidth, maxV * 8 * 3)
        return DecodeMemoryEstimate.sum(
            DecodeMemoryEstimate.product(perComponent, components.count),
            DecodeMemoryEstimate.product(height, 8)
        )
    }

    private static func divideRoundingUp(_ value: Int, _ divisor: Int) -> Int {
        value / divisor + (value % divisor == 0 ? 0 : 1)
    }

    private static func roundUp(_ value: Int, _ multiple: Int) -> Int {
        DecodeMemoryEstimate.product(divideRoundingUp(value, multiple), multiple)
    }
}
