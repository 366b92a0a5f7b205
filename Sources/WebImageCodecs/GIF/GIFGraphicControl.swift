import WebImageCore

/// The graphic control extension (GIF89a) of a frame: disposal, delay and transparent colour index.
struct GIFGraphicControl: Sendable, Hashable {
    /// What happens to the frame's rectangle after it has been shown. Methods 0 (unspecified), 1 (do not
    /// dispose) and the undefined 4–7 leave it; 2 clears it to transparent; 3 restores what was there before.
    var disposal: AnimationCanvas.Disposal = .none
    private var delay: UInt16 = 0
    private var transparent: UInt8?

    /// The delay in centiseconds.
    var delayCentiseconds: Int { Int(delay) }
    /// The palette index drawn as transparent, if any.
    var transparentIndex: Int? { transparent.map(Int.init) }

    /// The defaults for a frame without a graphic control extension.
    init() {}

    /// Parses the extension's data sub-block: packed fields, delay (little-endian), transparent index.
    /// Returns nil when the block is shorter than its 4 bytes.
    init?(block: UnsafeRawBufferPointer) {
        guard block.count >= 4 else { return nil }
        let flags = block[0]
        switch (flags >> 2) & 0x07 {
        case 2: disposal = .background
        case 3: disposal = .previous
        default: disposal = .none
        }
        delay = UInt16(block[1]) | UInt16(block[2]) << 8
        transparent = flags & 0x01 != 0 ? block[3] : nil
    }
}
