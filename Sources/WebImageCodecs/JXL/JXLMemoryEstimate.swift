import WebImageCore

/// The peak memory of each way the JPEG XL coder decodes, worked out from the headers before anything is
/// allocated, for the decode memory budget (``ImageDecodeOptions/maxDecodeMemory``).
///
/// libjxl 0.7 decodes every frame at full size into planes of 32-bit floats before converting to the RGBA8
/// output: three colour planes (12 bytes a pixel) and one plane for each extra channel (4 bytes a pixel for
/// alpha). An animation also keeps the coalesced canvas of the frames before, in the same float planes, to
/// blend the next frame on. Group and entropy-decoding buffers are small beside these and not counted.
enum JXLMemoryEstimate {
    /// libjxl's own memory for decoding frames of `header` (the output not included).
    static func decoder(_ header: JXLHeader) -> DecodeMemoryEstimate {
        var memory = DecodeMemoryEstimate()
        let planes = header.hasAlpha ? 4 : 3
        memory.add("libjxl's float planes", bytes: DecodeMemoryEstimate.product(header.size.pixelCount, planes, 4))
        if header.isAnimated {
            memory.add("libjxl's canvas", bytes: DecodeMemoryEstimate.product(header.size.pixelCount, planes, 4))
        }
        return memory
    }

    /// A decode of `keptFrames` frames of `target` from libjxl's output of `canvas` (through a full-size
    /// scratch canvas that is resampled when the target is smaller), with `extra` more frames of `target`
    /// held beside them (a provider's last frame, an incremental decode's partial image).
    static func decode(
        _ header: JXLHeader,
        canvas: PixelSize,
        target: PixelSize,
        keptFrames: Int,
        extraFrames: Int = 0
    ) -> DecodeMemoryEstimate {
        var memory = decoder(header)
        if target != canvas {
            memory.add("full-size output", pixels: canvas)
            memory.addResampler(from: canvas, to: target)
        }
        memory.add("frames", pixels: target, count: keptFrames + extraFrames)
        return memory
    }
}
