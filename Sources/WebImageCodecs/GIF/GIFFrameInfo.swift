import WebImageCore

/// What the records of one GIF frame say: where it lies on the canvas and how it is shown.
///
/// Stored compactly (GIF's own 16-bit fields): a frame source keeps one for every frame.
struct GIFFrameInfo: Sendable, Hashable {
    private var x: UInt16
    private var y: UInt16
    private var width: UInt16
    private var height: UInt16
    /// Whether the rows are stored interlaced (rows 0, 8, 16 …, then 4, 12 …, then 2, 6 …, then 1, 3 …).
    var isInterlaced: Bool
    /// Whether the frame has a local colour table.
    var hasLocalColorTable: Bool
    /// The graphic control extension that preceded the frame, or the defaults when there was none.
    var control: GIFGraphicControl
    /// The offset of the frame's first record (its extensions, else its image descriptor): decoding can
    /// resume there.
    var recordOffset: Int

    init(rect: AnimationCanvas.Rect, isInterlaced: Bool, hasLocalColorTable: Bool, control: GIFGraphicControl, recordOffset: Int) {
        x = UInt16(clamping: rect.x)
        y = UInt16(clamping: rect.y)
        width = UInt16(clamping: rect.width)
        height = UInt16(clamping: rect.height)
        self.isInterlaced = isInterlaced
        self.hasLocalColorTable = hasLocalColorTable
        self.control = control
        self.recordOffset = recordOffset
    }

    /// The frame's rectangle in canvas pixels, as its image descriptor gives it (not clipped).
    var rect: AnimationCanvas.Rect {
        AnimationCanvas.Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    }

    /// The display duration in seconds: the delay in centiseconds, with delays under 0.011 s shown as 0.1 s.
    var duration: Double {
        ImageFrame.normalizedDuration(Double(control.delayCentiseconds) / 100)
    }

    /// Whether the frame covers every pixel of a canvas of `size`.
    func covers(_ size: PixelSize) -> Bool {
        let rect = self.rect
        return rect.x <= 0 && rect.y <= 0 && rect.x + rect.width >= size.width && rect.y + rect.height >= size.height
    }
}

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

/// The NETSCAPE2.0 application extension (also written as ANIMEXTS1.0): the animation's loop count.
enum GIFLoopExtension {
    /// Whether the application identifier block names the looping extension.
    static func isLoopExtension(identifier: UnsafeRawBufferPointer) -> Bool {
        let text = Array(identifier)
        return text == Array("NETSCAPE2.0".utf8) || text == Array("ANIMEXTS1.0".utf8)
    }

    /// The loop count from a data sub-block `01 lo hi`: 0 means forever. Nil for other sub-blocks.
    static func loopCount(subBlock: UnsafeRawBufferPointer) -> Int? {
        guard subBlock.count >= 3, subBlock[0] == 1 else { return nil }
        return Int(subBlock[1]) | Int(subBlock[2]) << 8
    }
}
