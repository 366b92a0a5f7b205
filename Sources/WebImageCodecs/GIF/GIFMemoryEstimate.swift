import WebImageCore

/// The peak memory of each way the GIF coder decodes, worked out from the scan of the records before anything is
/// allocated, for the decode memory budget (``ImageDecodeOptions/maxDecodeMemory``).
///
/// Every decode holds the frame renderer's scratch (a colour table, a row of indices as wide as GIF allows and a
/// row of canvas pixels); giflib itself holds a few kilobytes of LZW state.
enum GIFMemoryEstimate {
    /// A still image (the first frame) decoded to `target`: straight into the output at the canvas size, row by
    /// row into the resampler when reduced, through a scratch buffer of the canvas when reduced and interlaced.
    static func still(canvas: PixelSize, target: PixelSize, isInterlaced: Bool) -> DecodeMemoryEstimate {
        var memory = renderer(canvas: canvas)
        memory.add("output", pixels: target)
        if target != canvas {
            if isInterlaced { memory.add("scratch", pixels: canvas) }
            memory.addResampler(from: canvas, to: target)
        }
        return memory
    }

    /// An animation composited on a canvas of `structure`'s size: the canvas, its copy when a frame is disposed
    /// to the previous canvas, and `keptFrames` frames of `target` (every frame for a decode, the frame handed out
    /// and the one being made for a frame source).
    static func animation(_ structure: GIFStructure, target: PixelSize, keptFrames: Int) -> DecodeMemoryEstimate {
        var memory = renderer(canvas: structure.canvasSize)
        memory.add("canvas", pixels: structure.canvasSize)
        if structure.keepsCanvasForDisposal {
            memory.add("canvas kept for disposal", pixels: structure.canvasSize)
        }
        memory.add("frames", pixels: target, count: keptFrames)
        memory.addResampler(from: structure.canvasSize, to: target)
        return memory
    }

    private static func renderer(canvas: PixelSize) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        memory.add(
            "frame renderer",
            bytes: DecodeMemoryEstimate.sum(DecodeMemoryEstimate.product(canvas.width, 4), 1024 + GIFFrameRenderer.maximumFrameWidth)
        )
        return memory
    }
}
