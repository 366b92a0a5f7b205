import WebImageCore

/// What the records of one GIF frame say: where it lies on the canvas and how it is shown.
struct GIFFrameInfo: Sendable, Hashable {
    /// The frame's rectangle in canvas pixels, as its image descriptor gives it (not clipped).
    var rect: AnimationCanvas.Rect
    /// Whether the rows are stored interlaced (rows 0, 8, 16 …, then 4, 12 …, then 2, 6 …, then 1, 3 …).
    var isInterlaced: Bool
    /// Whether the frame has a local colour table.
    var hasLocalColorTable: Bool
    /// The graphic control extension that preceded the frame, or the defaults when there was none.
    var control: GIFGraphicControl
    /// The offset of the frame's first record (its extensions, else its image descriptor): decoding can
    /// resume there.
    var recordOffset: Int

    /// The display duration in seconds: the delay in centiseconds, with delays under 0.011 s shown as 0.1 s.
    var duration: Double {
        ImageFrame.normalizedDuration(Double(control.delayCentiseconds) / 100)
    }

    /// Whether the frame covers every pixel of a canvas of `size`.
    func covers(_ size: PixelSize) -> Bool {
        rect.x <= 0 && rect.y <= 0 && rect.x + rect.width >= size.width && rect.y + rect.height >= size.height
    }
}

/// The graphic control extension (GIF89a) of a frame: disposal, delay and transparent colour index.
struct GIFGraphicControl: Sendable, Hashable {
    /// What happens to the frame's rectangle after it has been shown. Methods 0 (unspecified), 1 (do not
    /// dispose) and the undefined 4–7 leave it; 2 clears it to transparent; 3 restores what was there before.
    var disposal: AnimationCanvas.Disposal = .none
    /// The delay in centiseconds.
    var delayCentiseconds = 0
    /// The palette index drawn as transparent, if any.
    var transparentIndex: Int?

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
        delayCentiseconds = Int(block[1]) | Int(block[2]) << 8
        transparentIndex = flags & 0x01 != 0 ? Int(block[3]) : nil
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
