/// Turns the CMYK pixels libjpeg decodes into RGBA, in place (both take 4 bytes a pixel).
///
/// The conversion is the usual multiplicative one, as browsers and ImageMagick do without a colour profile:
/// with ink amounts C, M, Y, K from 0 to 1, R = (1 − C)(1 − K), G = (1 − M)(1 − K), B = (1 − Y)(1 − K).
///
/// How the stored bytes map to ink depends on the writer. Files with an Adobe APP14 segment (Photoshop,
/// ImageMagick, libjpeg's own writer: nearly every CMYK JPEG) store the complement, 255 − ink, so a stored byte is
/// already 1 − ink: R = c·k / 255. Files without that segment store the ink amount itself: R = (255 − c)(255 − k) / 255.
enum JPEGCMYKConversion {
    /// Converts `size` pixels at `base`, `bytesPerRow` bytes a row, from CMYK to RGBA with alpha 255.
    ///
    /// - Parameter inverted: Whether the stored values are 255 − ink (the file has an Adobe APP14 segment).
    static func convertToRGBA(
        _ base: UnsafeMutableRawPointer,
        size: PixelSize,
        bytesPerRow: Int,
        inverted: Bool
    ) {
        let flip: UInt32 = inverted ? 0 : 255
        for y in 0..<size.height {
            let row = (base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<size.width {
                let p = row + x * 4
                // Each stored byte becomes 1 − ink, scaled to 0...255.
                let c = UInt32(p[0]) ^ flip
                let m = UInt32(p[1]) ^ flip
                let yellow = UInt32(p[2]) ^ flip
                let k = UInt32(p[3]) ^ flip
                p[0] = product(c, k)
                p[1] = product(m, k)
                p[2] = product(yellow, k)
                p[3] = 255
            }
        }
    }

    /// a·b / 255, rounded to nearest, for a and b in 0...255.
    @inline(__always)
    private static func product(_ a: UInt32, _ b: UInt32) -> UInt8 {
        let t = a * b + 128
        return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
    }
}
