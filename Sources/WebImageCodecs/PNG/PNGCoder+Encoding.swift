#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PNGCoder {
    /// Encodes `image` as a PNG, or an animation as an APNG: 8-bit RGBA when the image has alpha, 8-bit RGB when
    /// it is opaque.
    ///
    /// - Parameters:
    ///   - image: The image. An animation becomes an APNG whose frames each cover the whole canvas, with the
    ///     image's durations and loop count; with ``ImageEncodeOptions/firstFrameOnly`` only its first frame is
    ///     written, as a plain PNG.
    ///   - format: Must be `.png`.
    ///   - options: ``ImageEncodeOptions/maxPixelSize`` scales the image down first; ``ImageEncodeOptions/backgroundColor``
    ///     is laid under pixels that are not opaque in an image without alpha; quality does not apply (PNG is
    ///     lossless).
    /// - Throws: `unsupportedFormat` for another format, `encodingFailed` with libpng's message.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard format == .png else { throw .unsupportedFormat(format, "encode") }
        let frames = try image.framesForEncoding(options, animated: true)
        guard let first = frames.first else {
            throw WebImageError(.encodingFailed, "PNG: the image has no frames")
        }
        if frames.count == 1 {
            return try encodeStill(first.pixels, hasAlpha: image.hasAlpha, background: options.backgroundColor)
        }
        var writer = APNGWriter(frameCount: frames.count, loopCount: image.loopCount)
        var previous: (pixels: PixelBuffer, png: Data)?
        for frame in frames {
            // Frames that share a buffer share their encoding too.
            let png: Data
            if let previous, previous.pixels === frame.pixels {
                png = previous.png
            } else {
                png = try encodeStill(frame.pixels, hasAlpha: image.hasAlpha, background: options.backgroundColor)
            }
            try writer.append(png, duration: frame.duration)
            previous = (frame.pixels, png)
        }
        return writer.finished()
    }

    /// Encodes one buffer as a PNG file: RGBA straight from the pixels when `hasAlpha`, else RGB converted row
    /// by row into a scratch buffer.
    func encodeStill(_ pixels: PixelBuffer, hasAlpha: Bool, background: RGBAColor) throws(WebImageError) -> Data {
        if hasAlpha {
            return try LibPNG.write(pixels.baseAddress, size: pixels.size, stride: pixels.bytesPerRow, hasAlpha: true)
        }
        let rowBytes = pixels.width * 3
        let (byteCount, overflow) = rowBytes.multipliedReportingOverflow(by: pixels.height)
        guard !overflow else { throw WebImageError(.encodingFailed, "PNG: \(pixels.size) pixels are too many to encode") }
        return try ScratchBufferPool.shared.withBuffer(byteCount: byteCount) { scratch throws(WebImageError) -> Data in
            guard let base = scratch.baseAddress else {
                throw WebImageError(.encodingFailed, "PNG: no memory for the rows")
            }
            let rgb = base.assumingMemoryBound(to: UInt8.self)
            for y in 0..<pixels.height {
                pixels.writeFlattenedRGBRow(y, over: background, into: rgb + y * rowBytes)
            }
            return try LibPNG.write(UnsafeRawPointer(base), size: pixels.size, stride: rowBytes, hasAlpha: false)
        }
    }
}
