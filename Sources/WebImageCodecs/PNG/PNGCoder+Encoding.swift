#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PNGCoder {
    /// Encodes the first frame of `image` as a PNG: 8-bit RGBA when the image has alpha, 8-bit RGB when it is
    /// opaque.
    ///
    /// - Parameters:
    ///   - image: The image; an animation is written as its first frame (APNG is not written).
    ///   - format: Must be `.png`.
    ///   - options: ``ImageEncodeOptions/maxPixelSize`` scales the image down first; quality does not apply
    ///     (PNG is lossless).
    /// - Throws: `unsupportedFormat` for another format, `encodingFailed` with libpng's message.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard format == .png else { throw .unsupportedFormat(format, "encode") }
        guard let frame = try image.framesForEncoding(options, animated: false).first else {
            throw WebImageError(.encodingFailed, "PNG: the image has no frames")
        }
        let pixels = frame.pixels
        if image.hasAlpha {
            return try LibPNG.write(pixels.baseAddress, size: pixels.size, stride: pixels.bytesPerRow, hasAlpha: true)
        }
        // Opaque: three bytes a pixel, converted row by row into a scratch buffer.
        let rowBytes = pixels.width * 3
        let (byteCount, overflow) = rowBytes.multipliedReportingOverflow(by: pixels.height)
        guard !overflow else { throw WebImageError(.encodingFailed, "PNG: \(pixels.size) pixels are too many to encode") }
        return try ScratchBufferPool.shared.withBuffer(byteCount: byteCount) { scratch throws(WebImageError) -> Data in
            guard let base = scratch.baseAddress else {
                throw WebImageError(.encodingFailed, "PNG: no memory for the rows")
            }
            let rgb = base.assumingMemoryBound(to: UInt8.self)
            for y in 0..<pixels.height {
                pixels.writeFlattenedRGBRow(y, over: options.backgroundColor, into: rgb + y * rowBytes)
            }
            return try LibPNG.write(UnsafeRawPointer(base), size: pixels.size, stride: rowBytes, hasAlpha: false)
        }
    }
}
