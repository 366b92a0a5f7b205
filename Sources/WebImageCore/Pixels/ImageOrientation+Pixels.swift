extension ImageOrientation {
    /// Writes the upright version of stored pixels into `destination`.
    ///
    /// - Parameters:
    ///   - source: Stored pixels of `size`, `sourceBytesPerRow` bytes a row.
    ///   - destination: Room for `uprightSize(of: size)`, `destinationBytesPerRow` bytes a row; must not overlap
    ///     the source.
    package func makeUpright(
        _ source: UnsafeRawPointer,
        size: PixelSize,
        bytesPerRow sourceBytesPerRow: Int,
        into destination: UnsafeMutableRawPointer,
        bytesPerRow destinationBytesPerRow: Int
    ) {
        let w = size.width
        let h = size.height
        let out = uprightSize(of: size)
        // For each destination pixel (x, y): the stored pixel it comes from.
        let map: (Int, Int) -> (Int, Int)
        switch self {
        case .up: map = { x, y in (x, y) }
        case .upMirrored: map = { x, y in (w - 1 - x, y) }
        case .down: map = { x, y in (w - 1 - x, h - 1 - y) }
        case .downMirrored: map = { x, y in (x, h - 1 - y) }
        case .leftMirrored: map = { x, y in (y, x) }
        case .right: map = { x, y in (y, h - 1 - x) }
        case .rightMirrored: map = { x, y in (w - 1 - y, h - 1 - x) }
        case .left: map = { x, y in (w - 1 - y, x) }
        }
        if self == .up || self == .upMirrored || self == .down || self == .downMirrored {
            // Rows stay rows: copy or reverse whole rows.
            for y in 0..<out.height {
                let (_, sy) = map(0, y)
                let src = (source + sy * sourceBytesPerRow).assumingMemoryBound(to: UInt32.self)
                let dst = (destination + y * destinationBytesPerRow).assumingMemoryBound(to: UInt32.self)
                if self == .up || self == .downMirrored {
                    dst.update(from: src, count: w)
                } else {
                    for x in 0..<w { dst[x] = src[w - 1 - x] }
                }
            }
            return
        }
        for y in 0..<out.height {
            let dst = (destination + y * destinationBytesPerRow).assumingMemoryBound(to: UInt32.self)
            for x in 0..<out.width {
                let (sx, sy) = map(x, y)
                dst[x] = (source + sy * sourceBytesPerRow).load(fromByteOffset: sx * 4, as: UInt32.self)
            }
        }
    }
}

extension PixelBuffer {
    /// A new buffer with these stored pixels turned upright for `orientation`.
    public func uprighted(for orientation: ImageOrientation) throws(WebImageError) -> PixelBuffer {
        let size = orientation.uprightSize(of: self.size)
        let result = try PixelBuffer(uninitializedWidth: size.width, height: size.height)
        orientation.makeUpright(
            baseAddress,
            size: self.size,
            bytesPerRow: bytesPerRow,
            into: result.mutableBaseAddress,
            bytesPerRow: result.bytesPerRow
        )
        return result
    }
}
