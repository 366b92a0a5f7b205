import WebImageCore

/// Decodes the first frame of a GIF as a still image, storing its pixels once.
///
/// - At full size the frame is decoded straight into the image's buffer.
/// - Reduced, the canvas rows stream into a ``PixelResampler`` as they are decoded, so no full-size buffer is
///   ever made; an interlaced frame, whose rows come out of order, is decoded into a full-size scratch buffer
///   first, which the pixel limit must allow. A logical screen over the pixel limit is streamed only when the
///   frame covers it: rows outside the frame cost no data, so a few bytes could otherwise cost minutes.
enum GIFStillDecoder {
    /// Decodes the first frame of `bytes` at `target` size.
    ///
    /// - Throws: `badImageData` for malformed data; `imageTooLarge` when a reduction would need a full-size
    ///   buffer over the pixel limit.
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        structure: GIFStructure,
        target: PixelSize,
        hasAlpha: Bool,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> PixelBuffer {
        let canvas = structure.canvasSize
        let output = try PixelBuffer(uninitializedWidth: target.width, height: target.height)
        try GIFFrameRenderer.withRenderer(canvasWidth: canvas.width) { renderer throws(WebImageError) in
            try GIFRecordReader.read(bytes) { reader throws(WebImageError) in
                guard let frame = try reader.nextFrame() else {
                    throw .badImageData(.gif, "the file has no image")
                }
                if target == canvas {
                    try renderer.render(frame, from: &reader, canvasSize: canvas, into: output.mutableBaseAddress, bytesPerRow: output.bytesPerRow)
                } else if !frame.isInterlaced {
                    try stream(frame, from: &reader, renderer: renderer, canvas: canvas, into: output, hasAlpha: hasAlpha, options: options)
                } else {
                    // Interlaced rows arrive out of order: the reduction needs the whole canvas first.
                    try options.checkPixelLimit(canvas, format: .gif)
                    try ScratchBufferPool.shared.withBuffer(byteCount: canvas.pixelCount * 4) { scratch throws(WebImageError) in
                        let base = scratch.baseAddress!
                        try renderer.render(frame, from: &reader, canvasSize: canvas, into: base, bytesPerRow: canvas.width * 4)
                        PixelResampler.resample(
                            UnsafeRawPointer(base),
                            size: canvas,
                            bytesPerRow: canvas.width * 4,
                            hasAlpha: hasAlpha,
                            into: output.mutableBaseAddress,
                            size: target,
                            bytesPerRow: output.bytesPerRow
                        )
                    }
                }
            }
        }
        return output
    }

    /// Streams the canvas rows of a non-interlaced frame into a resampler that writes `output`.
    private static func stream(
        _ frame: GIFFrameInfo,
        from reader: inout GIFRecordReader,
        renderer: GIFFrameRenderer,
        canvas: PixelSize,
        into output: PixelBuffer,
        hasAlpha: Bool,
        options: ImageDecodeOptions
    ) throws(WebImageError) {
        if options.maxPixelCount > 0, canvas.pixelCount > options.maxPixelCount, !frame.covers(canvas) {
            // Rows outside the frame cost no data: a huge logical screen around a small frame would make a few
            // bytes cost minutes of resampling.
            throw .imageTooLarge(.gif, size: canvas, limit: options.maxPixelCount)
        }
        let resampler = PixelResampler(
            from: canvas,
            to: output.size,
            hasAlpha: hasAlpha,
            output: output.mutableBaseAddress,
            outputBytesPerRow: output.bytesPerRow
        )
        let row = renderer.pixels
        let rect = frame.rect
        let x0 = min(rect.x, canvas.width)
        let width = min(rect.width, canvas.width - x0)
        let top = min(rect.y, canvas.height)
        let rows = top..<max(top, min(canvas.height, rect.y + rect.height))
        reader.fillColorTable(renderer.colors, transparentIndex: frame.control.transparentIndex)
        row.update(repeating: 0, count: canvas.width)
        for y in 0..<canvas.height {
            if rows.contains(y), width > 0 {
                try reader.readRow(into: renderer.indices)
                renderer.convert(width, into: row + x0)
            } else if y == rows.upperBound, width > 0 {
                row.update(repeating: 0, count: canvas.width)
            }
            resampler.push(row: UnsafeRawPointer(row))
        }
    }
}
