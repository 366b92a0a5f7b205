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
        let text = message()
        let reason = text.isEmpty ? "libpng failed without saying why" : "libpng: \(text)"
        throw WebImageError(code, "PNG: \(reason)")
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
    /// Asks libpng for the size first, then writes into a buffer of that size.
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
        func describe() -> png_image {
            var image = png_image()
            image.version = UInt32(cpng_image_version)
            image.width = UInt32(size.width)
            image.height = UInt32(size.height)
            image.format = UInt32(hasAlpha ? cpng_format_rgba : cpng_format_rgb)
            return image
        }
        var image = describe()
        defer { png_image_free(&image) }
        var byteCount: png_alloc_size_t = 0
        let measured = png_image_write_to_memory(&image, nil, &byteCount, 0, pixels, Int32(stride), nil) != 0
        try check(measured && byteCount > 0, image.messageText, code: .encodingFailed)

        // The first call freed its state; describe the image afresh for the second.
        png_image_free(&image)
        image = describe()
        var output = Data(count: Int(byteCount))
        var written = byteCount
        let succeeded = output.withUnsafeMutableBytes { buffer in
            png_image_write_to_memory(&image, buffer.baseAddress, &written, 0, pixels, Int32(stride), nil) != 0
        }
        try check(succeeded && written <= byteCount, image.messageText, code: .encodingFailed)
        output.count = Int(written)
        return output
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
