import WebImageCore

/// Turns a frame's palette indices into RGBA rows: the colour table, one row of indices and one row of pixels,
/// all in one scratch buffer that lives for one decode.
struct GIFFrameRenderer {
    /// 256 packed RGBA colours: the current frame's table.
    let colors: UnsafeMutablePointer<UInt32>
    /// One row of palette indices, as wide as the widest frame GIF allows.
    let indices: UnsafeMutablePointer<UInt8>
    /// One row of canvas pixels.
    let pixels: UnsafeMutablePointer<UInt32>

    /// The widest frame a GIF can describe (its sizes are 16-bit).
    static let maximumFrameWidth = 65535

    /// Calls `body` with a renderer whose rows hold `canvasWidth` pixels, from the shared scratch pool.
    static func withRenderer<R>(
        canvasWidth: Int,
        _ body: (GIFFrameRenderer) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        let colorBytes = 256 * 4
        let pixelBytes = canvasWidth * 4
        return try ScratchBufferPool.shared.withBuffer(byteCount: colorBytes + pixelBytes + maximumFrameWidth) { scratch throws(WebImageError) in
            let base = scratch.baseAddress!
            let renderer = GIFFrameRenderer(
                colors: base.bindMemory(to: UInt32.self, capacity: 256),
                indices: (base + colorBytes + pixelBytes).bindMemory(to: UInt8.self, capacity: maximumFrameWidth),
                pixels: (base + colorBytes).bindMemory(to: UInt32.self, capacity: canvasWidth)
            )
            return try body(renderer)
        }
    }

    /// Converts the first `count` indices of ``indices`` through ``colors`` into `destination`.
    @inline(__always)
    func convert(_ count: Int, into destination: UnsafeMutablePointer<UInt32>) {
        for x in 0..<count {
            destination[x] = colors[Int(indices[x])]
        }
    }

    /// Decodes the frame `reader` has just returned and draws it over `canvas` (transparent pixels leave the
    /// canvas as it is). Only rows that reach the canvas are converted; decoding stops after the last of them
    /// and the rest of the image data is skipped. A frame wholly outside the canvas is not decoded at all.
    ///
    /// Call ``AnimationCanvas/dispose(_:_:)`` with the frame's disposal after the frame has been shown.
    func draw(_ frame: GIFFrameInfo, from reader: inout GIFRecordReader, onto canvas: AnimationCanvas) throws(WebImageError) {
        let rect = frame.rect
        if frame.control.disposal == .previous {
            try canvas.saveForDisposal(rect)
        }
        let clip = canvas.clip(rect)
        guard !clip.isEmpty else {
            try reader.skipImageData()
            return
        }
        reader.fillColorTable(colors, transparentIndex: frame.control.transparentIndex)
        // Rows hold only the part of the frame on the canvas; frames start at x >= 0, so that is a prefix.
        let drawn = AnimationCanvas.Rect(x: rect.x, y: rect.y, width: clip.width, height: rect.height)
        var rowsOnCanvas = 0
        for line in 0..<rect.height {
            try reader.readRow(into: indices)
            let y = GIFInterlace.row(forLine: line, height: rect.height, interlaced: frame.isInterlaced)
            guard rect.y + y < canvas.size.height else { continue }
            convert(clip.width, into: pixels)
            canvas.drawRow(pixels, y: y, of: drawn, blend: .over)
            rowsOnCanvas += 1
            if rowsOnCanvas == clip.height { break }
        }
        try reader.skipImageData()
    }

    /// Decodes the frame `reader` has just returned onto an empty canvas held in `destination` (`canvasSize`,
    /// `bytesPerRow` bytes a row): pixels outside the frame and transparent pixels become transparent black.
    func render(
        _ frame: GIFFrameInfo,
        from reader: inout GIFRecordReader,
        canvasSize: PixelSize,
        into destination: UnsafeMutableRawPointer,
        bytesPerRow: Int
    ) throws(WebImageError) {
        if !frame.covers(canvasSize) {
            for y in 0..<canvasSize.height {
                (destination + y * bytesPerRow).initializeMemory(as: UInt8.self, repeating: 0, count: canvasSize.width * 4)
            }
        }
        let rect = frame.rect
        let clipWidth = min(rect.width, canvasSize.width - rect.x)
        let clipHeight = min(rect.height, canvasSize.height - rect.y)
        guard clipWidth > 0, clipHeight > 0 else { return }
        reader.fillColorTable(colors, transparentIndex: frame.control.transparentIndex)
        var rowsOnCanvas = 0
        for line in 0..<rect.height {
            try reader.readRow(into: indices)
            let y = rect.y + GIFInterlace.row(forLine: line, height: rect.height, interlaced: frame.isInterlaced)
            guard y < canvasSize.height else { continue }
            let row = (destination + y * bytesPerRow + rect.x * 4).bindMemory(to: UInt32.self, capacity: clipWidth)
            convert(clipWidth, into: row)
            rowsOnCanvas += 1
            if rowsOnCanvas == clipHeight { break }
        }
    }
}
