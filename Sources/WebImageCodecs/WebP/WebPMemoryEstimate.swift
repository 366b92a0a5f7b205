import WebImageCore

/// The peak memory of each way the WebP coder decodes, worked out from the headers before anything is
/// allocated, for the decode memory budget (``ImageDecodeOptions/maxDecodeMemory``).
///
/// What libwebp holds besides the output depends on the bitstream:
/// - lossless (VP8L): the whole image as 32-bit ARGB (backward references reach anywhere above), its transforms'
///   sub-sampled data, and a few rows of cache;
/// - lossy with alpha: the alpha plane (a byte a pixel) and, for compressed alpha, a lossless decoder of its own,
///   counted at its most (4 bytes a pixel; libwebp needs 1 when the alpha uses only a colour index);
/// - lossy without alpha: a few macroblock rows (about 160 bytes a column).
enum WebPMemoryEstimate {
    /// libwebp's memory for decoding one image of `size` whose bitstream `features` describe (the output not
    /// included: it is the caller's buffer or an animation's canvas).
    static func decoder(size: PixelSize, isLossless: Bool, hasAlpha: Bool) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        let rows = DecodeMemoryEstimate.product(size.width, 160)
        if isLossless {
            memory.add("libwebp's lossless image", pixels: size)
            memory.add("libwebp's lossless image", bytes: size.pixelCount / 4)
        } else if hasAlpha {
            memory.add("libwebp's alpha plane", bytes: size.pixelCount)
            memory.add("libwebp's alpha decoder", pixels: size)
        }
        memory.add("libwebp's rows", bytes: rows)
        return memory
    }

    /// A still image decoded to `target` (scaled by libwebp when smaller than the source).
    static func still(_ features: WebPFeatures, target: PixelSize) -> DecodeMemoryEstimate {
        var memory = decoder(size: features.size, isLossless: features.isLossless, hasAlpha: features.hasAlpha)
        memory.add("output", pixels: target)
        if target != features.size {
            memory.add("libwebp's rescaler", bytes: DecodeMemoryEstimate.product(DecodeMemoryEstimate.sum(features.size.width, target.width), 32))
        }
        return memory
    }

    /// An animation decoded by libwebp's animation decoder: its two canvases (the one it composites on and the
    /// previous one, kept for disposal), the largest frame's decoder memory, the copy of the file the decoder
    /// reads from, and `keptFrames` frames of `target`.
    static func animation(
        _ header: WebPAnimationHeader,
        target: PixelSize,
        keptFrames: Int,
        fileByteCount: Int
    ) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        memory.add("canvases", pixels: header.canvasSize, count: 2)
        memory.add(header.largestFrameDecoder)
        memory.add("copy of the file", bytes: fileByteCount)
        memory.add("frames", pixels: target, count: keptFrames)
        memory.addResampler(from: header.canvasSize, to: target)
        return memory
    }
}
