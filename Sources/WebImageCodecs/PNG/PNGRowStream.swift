internal import CWebImageShims

/// Reads a non-interlaced PNG one row at a time (inside the C shim, which owns the setjmp), so that no buffer of
/// the whole image is needed: a reduced decode pushes each row straight into a ``PixelResampler``, an APNG frame
/// draws each row onto its canvas. Memory is a row of the source (and a few rows of the resampler), whatever the
/// source's height.
enum PNGRowStream {
    /// The bounds the row reader enforces beyond the declared size.
    static let maxCachedChunks: UInt32 = 128
    /// The most bytes libpng may allocate for one ancillary chunk (a profile, text).
    static let maxChunkBytes = 8 << 20

    /// Reads every row of the non-interlaced PNG in `bytes` (whose header says `size`) and resamples it into
    /// `output`.
    ///
    /// - Parameter hasAlpha: Whether the source has alpha or a transparent colour.
    /// - Throws: `badImageData` with libpng's message when the data is damaged or ends early; `imageTooLarge`
    ///   when the image is interlaced.
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        size: PixelSize,
        hasAlpha: Bool,
        into output: PixelBuffer
    ) throws(WebImageError) {
        let resampler = PixelResampler(
            from: size,
            to: output.size,
            hasAlpha: hasAlpha,
            output: output.mutableBaseAddress,
            outputBytesPerRow: output.bytesPerRow
        )
        try forEachRow(of: bytes, size: size) { row, _ in resampler.push(row: row) }
        guard resampler.isComplete else {
            throw .badImageData(.png, "the image ended before all \(size.height) rows were read")
        }
    }

    /// Reads every row of the non-interlaced PNG in `bytes` (whose header says `size`) as 8-bit RGBA and calls
    /// `body` with each, from the top: the row (`size.width` pixels, valid only during the call) and its index.
    ///
    /// - Throws: `badImageData` with libpng's message when the data is damaged or ends before its last row, or
    ///   has more rows than `size`; `imageTooLarge` when the image is interlaced.
    static func forEachRow(
        of bytes: UnsafeRawBufferPointer,
        size: PixelSize,
        _ body: (UnsafeRawPointer, Int) -> Void
    ) throws(WebImageError) {
        guard let base = bytes.baseAddress else { throw .badImageData(.png, "the data is empty (0 bytes)") }
        var limits = webimage_png_limits(
            max_width: UInt32(clamping: size.width),
            max_height: UInt32(clamping: size.height),
            max_cached_chunks: maxCachedChunks,
            max_chunk_bytes: maxChunkBytes
        )
        var message = [CChar](repeating: 0, count: 200)
        let (status, rows) = try withoutActuallyEscaping(body) { body throws(WebImageError) in
            let sink = RowSink(height: size.height, body: body)
            let status = try ScratchBufferPool.shared.withBuffer(byteCount: size.width * 4) { row in
                withExtendedLifetime(sink) {
                    message.withUnsafeMutableBufferPointer { text in
                        webimage_png_read_rows(
                            base.assumingMemoryBound(to: UInt8.self),
                            bytes.count,
                            &limits,
                            row.baseAddress?.assumingMemoryBound(to: UInt8.self),
                            row.count,
                            { context, row, y in
                                // Called from C between libpng calls; no libpng call happens here.
                                guard let context, let row else { return 1 }
                                let sink = Unmanaged<RowSink>.fromOpaque(context).takeUnretainedValue()
                                return sink.take(UnsafeRawPointer(row), y: Int(y)) ? 0 : 1
                            },
                            Unmanaged.passUnretained(sink).toOpaque(),
                            text.baseAddress,
                            text.count
                        )
                    }
                }
            }
            return (status, sink.rows)
        }
        switch status {
        case WEBIMAGE_PNG_ROWS_INTERLACED:
            throw interlacedTooLarge(size)
        case WEBIMAGE_PNG_ROWS_STOPPED:
            throw .badImageData(.png, "the image has more rows than its header declares")
        default:
            let text = message.withUnsafeBufferPointer { buffer in
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            try LibPNG.check(status == WEBIMAGE_PNG_ROWS_OK, text)
        }
        guard rows == size.height else {
            throw .badImageData(.png, "the image ended before all \(size.height) rows were read")
        }
    }

    /// Where the C reader's rows go: the caller's closure, for rows within the declared height.
    private final class RowSink {
        let height: Int
        let body: (UnsafeRawPointer, Int) -> Void
        private(set) var rows = 0

        init(height: Int, body: @escaping (UnsafeRawPointer, Int) -> Void) {
            self.height = height
            self.body = body
        }

        /// Hands row `y` to the closure; false for a row beyond the declared height.
        func take(_ row: UnsafeRawPointer, y: Int) -> Bool {
            guard y < height else { return false }
            body(row, y)
            rows += 1
            return true
        }
    }

    /// The error for an interlaced image over the pixel limit: its passes need the whole image in memory.
    static func interlacedTooLarge(_ size: PixelSize) -> WebImageError {
        WebImageError(
            .imageTooLarge,
            "PNG: \(size) pixels is over the pixel limit, and an interlaced image cannot be decoded reduced row by row"
        )
    }
}
