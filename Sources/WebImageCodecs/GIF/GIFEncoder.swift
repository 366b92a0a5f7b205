#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CGIF
import WebImageCore

/// Writes images as GIF with giflib's `EGif…` writer, into memory.
///
/// Every frame is written whole (the full canvas) with its own local colour table from ``GIFQuantizer``.
/// - Transparency: when the image has alpha, pixels with alpha under 128 use a transparent index; a frame is
///   disposed to background when the frame after it (the first, after the last) has transparent pixels, so
///   that they show transparent and not the frame before; otherwise frames are not disposed.
/// - Delays are whole centiseconds: a duration of 0 (or not finite) is written as 0, which players show for
///   0.1 s; a positive duration is rounded to the nearest centisecond, at least 2, since players show delays of
///   0 and 1 centisecond for 0.1 s; at most 65535.
/// - An animation carries a NETSCAPE2.0 extension with the image's loop count (0 = forever); a still has none.
/// - The file is GIF89a when it has an extension, else GIF87a.
enum GIFEncoder {
    /// Encodes `image`.
    ///
    /// - Throws: `encodingFailed` when the image is larger than GIF allows or giflib fails.
    static func encode(_ image: Image, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        let frames = try image.framesForEncoding(options, animated: true)
        let size = frames[0].pixels.size
        guard size.width <= 65535, size.height <= 65535 else {
            throw WebImageError(.encodingFailed, "GIF: \(size) pixels is larger than GIF's 65535 x 65535")
        }
        let usesAlpha = image.hasAlpha
        let animated = frames.count > 1
        // Which frames have transparent pixels, per distinct buffer.
        var transparency: [ObjectIdentifier: Bool] = [:]
        let transparent = frames.map { frame in
            let id = ObjectIdentifier(frame.pixels)
            if let known = transparency[id] { return known }
            let value = usesAlpha && GIFQuantizer.hasTransparentPixels(frame.pixels)
            transparency[id] = value
            return value
        }

        return try GIFWriter.write(gif89: animated || transparent.contains(true)) { writer throws(WebImageError) in
            try writer.putScreen(size)
            if animated {
                try writer.putLoopExtension(count: min(65535, image.loopCount))
            }
            try ScratchBufferPool.shared.withBuffer(byteCount: GIFQuantizer.scratchByteCount + size.width) { scratch throws(WebImageError) in
                let quantizer = GIFQuantizer(scratch: scratch.baseAddress!)
                let row = (scratch.baseAddress! + GIFQuantizer.scratchByteCount).bindMemory(to: UInt8.self, capacity: size.width)
                for (index, frame) in frames.enumerated() {
                    let palette = quantizer.makePalette(for: frame.pixels, usesAlpha: usesAlpha)
                    if animated || palette.transparentIndex != nil {
                        let next = transparent[(index + 1) % frames.count]
                        try writer.putGraphicControl(
                            disposal: animated ? (next ? cgif_dispose_background : cgif_dispose_do_not) : cgif_disposal_unspecified,
                            delay: animated ? centiseconds(frame.duration) : 0,
                            transparentIndex: palette.transparentIndex
                        )
                    }
                    try writer.putImage(size, palette: palette) { y in
                        quantizer.mapRow(y, of: frame.pixels, palette: palette, usesAlpha: usesAlpha, into: row)
                        return row
                    }
                }
            }
        }
    }

    /// A duration in seconds as a GIF delay in centiseconds (see the type's notes).
    static func centiseconds(_ duration: Double) -> Int {
        guard duration.isFinite, duration > 0 else { return 0 }
        return Int(min(65535, max(2, (duration * 100).rounded())))
    }
}
