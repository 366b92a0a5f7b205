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
