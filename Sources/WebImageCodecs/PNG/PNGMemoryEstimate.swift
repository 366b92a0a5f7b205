/// The peak memory of each way the PNG coder decodes, worked out from the chunks before anything is allocated,
/// for the decode memory budget (``ImageDecodeOptions/maxDecodeMemory``).
///
/// libpng's own memory is a few rows whatever the image: the raw and previous rows (at most 8 bytes a pixel),
/// the transformed row, and zlib's window and state.
enum PNGMemoryEstimate {
    /// A still image decoded to `target` from a source of `size`: straight into the output at full size; row
    /// by row into the resampler when reduced; through a full-size scratch buffer when reduced and interlaced.
    static func still(size: PixelSize, target: PixelSize, isInterlaced: Bool) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        memory.add("output", pixels: target)
        addLibPNG(width: size.width, to: &memory)
        guard target != size else { return memory }
        if isInterlaced {
            memory.add("scratch", pixels: size)
        } else {
            memory.add("scratch", pixels: PixelSize(width: size.width, height: 1))
        }
        memory.addResampler(from: size, to: target)
        return memory
    }

    /// An APNG composited on its canvas: the canvas, its copy when some frame is disposed to the previous
    /// state, a row of a frame (the whole frame when the file is interlaced) and its compressed data (rebuilt as
    /// a standalone PNG), and `keptFrames` frames of `target` (every frame for a decode, the frame handed out and
    /// the one being made for a frame source).
    static func animation(
        _ animation: APNGAnimation,
        target: PixelSize,
        keptFrames: Int
    ) -> DecodeMemoryEstimate {
        let largest = animation.frames.max { $0.size.pixelCount < $1.size.pixelCount }?.size ?? animation.canvasSize
        let largestData = animation.frames.map { frame in
            frame.dataRanges.reduce(0) { DecodeMemoryEstimate.sum($0, $1.count) }
        }.max() ?? 0
        let sharedData = animation.sharedChunks.reduce(0) { DecodeMemoryEstimate.sum($0, $1.count) }
        return composited(
            canvas: animation.canvasSize,
            target: target,
            keptFrames: keptFrames,
            largestFrame: largest,
            isInterlaced: animation.header.isInterlaced,
            largestFrameData: DecodeMemoryEstimate.sum(largestData, sharedData),
            // The compositor disposes of a first frame's "previous" as "background": nothing is kept for it.
            savesPrevious: animation.frames.dropFirst().contains { $0.disposal == .previous }
        )
    }

    /// An APNG known only by its header and `acTL`, as a progressive decode first sees it: the most its decode
    /// can take (frames as large as the canvas, a copy for disposal), without the compressed data.
    static func animation(canvas: PixelSize, target: PixelSize, frameCount: Int, isInterlaced: Bool) -> DecodeMemoryEstimate {
        composited(
            canvas: canvas,
            target: target,
            keptFrames: frameCount,
            largestFrame: canvas,
            isInterlaced: isInterlaced,
            largestFrameData: 0,
            savesPrevious: true
        )
    }

    /// A progressive decode's session: the full-size canvas libpng's progressive reader writes into and the
    /// last partial image of `target`.
    static func progressiveSession(size: PixelSize, target: PixelSize) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        memory.add("partial images' canvas", pixels: size)
        memory.add("last partial image", pixels: target)
        memory.addResampler(from: size, to: target)
        addLibPNG(width: size.width, to: &memory)
        return memory
    }

    private static func composited(
        canvas: PixelSize,
        target: PixelSize,
        keptFrames: Int,
        largestFrame: PixelSize,
        isInterlaced: Bool,
        largestFrameData: Int,
        savesPrevious: Bool
    ) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        memory.add("canvas", pixels: canvas)
        if savesPrevious { memory.add("canvas kept for disposal", pixels: canvas) }
        // Rows are drawn as libpng reads them; an interlaced frame is decoded whole first.
        memory.add("scratch", pixels: isInterlaced ? largestFrame : PixelSize(width: largestFrame.width, height: 1))
        memory.add("frame data", bytes: largestFrameData)
        memory.add("frames", pixels: target, count: keptFrames)
        memory.addResampler(from: canvas, to: target)
        addLibPNG(width: largestFrame.width, to: &memory)
        return memory
    }

    /// libpng's rows for an image `width` pixels wide, and zlib's state.
    private static func addLibPNG(width: Int, to memory: inout DecodeMemoryEstimate) {
        memory.add("libpng's rows", bytes: DecodeMemoryEstimate.sum(DecodeMemoryEstimate.product(width, 8, 3), 64 << 10))
    }
}
