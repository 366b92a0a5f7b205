extension PixelBuffer {
    /// Writes row `y` as RGB (3 bytes a pixel) with the pixels laid over an opaque `background`, for encoders
    /// of formats without alpha.
    package func writeFlattenedRGBRow(_ y: Int, over background: RGBAColor, into destination: UnsafeMutablePointer<UInt8>) {
        let row = (baseAddress + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
        let br = UInt32(background.red)
        let bg = UInt32(background.green)
        let bb = UInt32(background.blue)
        for x in 0..<width {
            let p = row + x * 4
            let a = UInt32(p[3])
            let d = destination + x * 3
            if a == 255 {
                d[0] = p[0]; d[1] = p[1]; d[2] = p[2]
            } else {
                let ia = 255 - a
                d[0] = UInt8((UInt32(p[0]) * a + br * ia + 127) / 255)
                d[1] = UInt8((UInt32(p[1]) * a + bg * ia + 127) / 255)
                d[2] = UInt8((UInt32(p[2]) * a + bb * ia + 127) / 255)
            }
        }
    }

    /// A new opaque buffer: these pixels laid over `background` (whose own alpha is ignored).
    public func flattened(over background: RGBAColor) throws(WebImageError) -> PixelBuffer {
        let result = try PixelBuffer(uninitializedWidth: width, height: height)
        let rgb = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 3)
        defer { rgb.deallocate() }
        for y in 0..<height {
            writeFlattenedRGBRow(y, over: background, into: rgb)
            let out = (result.mutableBaseAddress + y * result.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                out[x * 4] = rgb[x * 3]
                out[x * 4 + 1] = rgb[x * 3 + 1]
                out[x * 4 + 2] = rgb[x * 3 + 2]
                out[x * 4 + 3] = 255
            }
        }
        return result
    }
}
