internal import CPNG
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The calls this coder makes into libpng's simplified API, and the one place libpng's results become errors.
enum LibPNG {
    /// Turns a libpng outcome into an error: nothing when `succeeded`, else a ``WebImageError`` with `code`
    /// (`badImageData` when reading, `encodingFailed` when writing) and libpng's own message.
    static func check(
        _ succeeded: Bool,
        _ message: @autoclosure () -> String,
        code: WebImageError.Code = .badImageData
    ) throws(WebImageError) {
        guard !succeeded else { return }
        throw failure(message(), code: code)
    }

    /// The error for a libpng failure with `message` (libpng's text, possibly empty).
    static func failure(_ message: String, code: WebImageError.Code) -> WebImageError {
        let reason = message.isEmpty ? "libpng failed without saying why" : "libpng: \(message)"
        return WebImageError(code, "PNG: \(reason)")
    }

    /// Begins a simplified read of `bytes` (the header up to the first image data), calls `body` with the
    /// image description, and frees libpng's state on every path.
    ///
    /// - Throws: `badImageData` with libpng's message when the header cannot be read; whatever `body` throws.
    static func withImage<R>(
        reading bytes: UnsafeRawBufferPointer,
        _ body: (inout png_image) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .badImageData(.png, "the data is empty (0 bytes)")
        }
        var image = png_image()
        image.version = UInt32(cpng_image_version)
        defer { png_image_free(&image) }
        try check(png_image_begin_read_from_memory(&image, base, bytes.count) != 0, image.messageText)
        return try body(&image)
    }

    /// Finishes a read begun by ``withImage(reading:_:)`` as 8-bit sRGB RGBA into `destination`, whose rows are
    /// `bytesPerRow` bytes apart (`width * 4` at least).
    ///
    /// 16-bit files without `gAMA` or `sRGB` are taken as sRGB, as browsers take them, not as linear light.
    static func finishReadingRGBA(
        _ image: inout png_image,
        into destination: UnsafeMutableRawPointer,
        bytesPerRow: Int
    ) throws(WebImageError) {
        guard bytesPerRow >= Int(image.width) * 4, bytesPerRow <= Int(Int32.max) else {
            throw WebImageError(.imageTooLarge, "PNG: rows of \(image.width) pixels are too long to decode")
        }
        image.format = UInt32(cpng_format_rgba)
        // The flag must be set after begin_read, which resets the flags.
        image.flags |= UInt32(cpng_image_flag_16bit_srgb)
        // For 8-bit output the row stride counts bytes.
        let succeeded = png_image_finish_read(&image, nil, destination, Int32(bytesPerRow), nil) != 0
        try check(succeeded, image.messageText)
    }

    /// Decodes a whole PNG in `bytes` (an APNG frame rebuilt as a file) into `destination`, `size.width * 4`
    /// bytes a row, after checking that its size is `size`.
    static func decodeRGBA(
        _ bytes: UnsafeRawBufferPointer,
        size: PixelSize,
        into destination: UnsafeMutableRawPointer
    ) throws(WebImageError) {
        try withImage(reading: bytes) { image throws(WebImageError) in
            guard image.pixelSize == size else {
                throw .badImageData(.png, "a frame decodes to \(image.pixelSize) pixels instead of \(size)")
            }
            try finishReadingRGBA(&image, into: destination, bytesPerRow: size.width * 4)
        }
    }

    /// Writes `pixels` (RGBA when `hasAlpha`, else RGB, 8 bits a channel, `stride` bytes a row) as a PNG file.
    ///
    /// Compresses once, into a scratch buffer of libpng's upper bound for the file's size (pages the output
    /// never reaches are never touched), then copies the bytes written into the result. Only when libpng
    /// reports that the bound was too small (a zlib that compresses worse than zlib's own bound) does it write
    /// again, into a buffer of the size libpng asked for.
    /// - Throws: `encodingFailed` with libpng's message.
    static func write(
        _ pixels: UnsafeRawPointer,
        size: PixelSize,
        stride: Int,
        hasAlpha: Bool
    ) throws(WebImageError) -> Data {
        guard stride <= Int(Int32.max), size.width <= Int(UInt32.max), size.height <= Int(UInt32.max) else {
            throw WebImageError(.encodingFailed, "PNG: \(size) pixels are too many to encode")
        }
        guard let bound = maximumFileSize(size, channels: hasAlpha ? 4 : 3) else {
            throw WebImageError(.encodingFailed, "PNG: \(size) pixels are too many to encode")
        }
        var capacity = bound
        var message = ""
        // At most two rounds: the second has the size libpng itself asked for.
        for _ in 0..<2 {
            var image = png_image()
            image.version = UInt32(cpng_image_version)
            image.width = UInt32(size.width)
            image.height = UInt32(size.height)
            image.format = UInt32(hasAlpha ? cpng_format_rgba : cpng_format_rgb)
            defer { png_image_free(&image) }
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
            defer { scratch.deallocate() }
            var written = png_alloc_size_t(capacity)
            let succeeded = png_image_write_to_memory(
                &image, scratch.baseAddress, &written, 0, pixels, Int32(stride), nil) != 0
            if succeeded, written <= capacity, let base = scratch.baseAddress {
                return Data(bytes: base, count: Int(written))
            }
            // A failure that raised the count is a buffer too small; any other is an error.
            message = image.messageText
            guard !succeeded, written > capacity, written <= Int.max else { break }
            capacity = Int(written)
        }
        throw failure(message, code: .encodingFailed)
    }

    /// libpng's upper bound on the size of a PNG file of `size` pixels with `channels` 8-bit channels, without
    /// a colour map (`PNG_IMAGE_PNG_SIZE_MAX`), or nil when it does not fit in an `Int`.
    static func maximumFileSize(_ size: PixelSize, channels: Int) -> Int? {
        // The filtered bytes: each row, plus its filter byte.
        let (rowBytes, o1) = size.width.multipliedReportingOverflow(by: channels)
        guard !o1, rowBytes < Int.max else { return nil }
        let (dataBytes, o2) = (rowBytes + 1).multipliedReportingOverflow(by: size.height)
        guard !o2, dataBytes < Int.max / 2 else { return nil }
        // zlib's bound (PNG_ZLIB_MAX_SIZE), then the chunk headers and fixed chunks around the IDATs.
        let compressed = dataBytes + (dataBytes + 7) / 8 + (dataBytes + 63) / 64 + 11
        let chunkBytes = 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192)
        let (total, o3) = compressed.addingReportingOverflow(chunkBytes)
        guard !o3 else { return nil }
        return total
    }
}

extension png_image {
    /// libpng's message for the last warning or error, from the fixed-size `message` field.
    var messageText: String {
        withUnsafeBytes(of: message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Whether the image has an alpha channel or a transparent colour (`tRNS`), after begin_read.
    var hasAlpha: Bool { format & UInt32(cpng_format_flag_alpha) != 0 }

    /// The size in pixels.
    var pixelSize: PixelSize { PixelSize(width: Int(width), height: Int(height)) }
}
