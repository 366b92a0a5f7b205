/// Rebuilds one APNG frame as a standalone PNG file that libpng's simplified API can read: the signature, an
/// `IHDR` with the frame's size, the colour chunks the frames share, the frame's compressed data as `IDAT`
/// chunks, and `IEND`, each with a fresh CRC.
///
/// The writer keeps its buffer between frames, so a whole animation costs one allocation of the largest
/// frame's size. Not thread-safe: one writer serves one decode.
struct APNGFrameWriter {
    private var buffer: [UInt8] = []

    /// Calls `body` with the standalone PNG of `frame`; the bytes are valid only inside the closure.
    ///
    /// - Parameter bytes: The whole APNG file the animation was parsed from.
    mutating func withStandalonePNG<R>(
        of frame: APNGFrame,
        in animation: APNGAnimation,
        bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        buffer.removeAll(keepingCapacity: true)
        var needed = PNGHeader.signature.count + 25 + 12
        for range in animation.sharedChunks { needed += range.count }
        for range in frame.dataRanges { needed += range.count + 12 }
        buffer.reserveCapacity(needed)

        buffer.append(contentsOf: PNGHeader.signature)
        // IHDR: the frame's width and height, then the file's own depth, colour type and methods.
        var ihdr: [UInt8] = []
        PNGChunk.appendBigEndian(UInt32(frame.size.width), to: &ihdr)
        PNGChunk.appendBigEndian(UInt32(frame.size.height), to: &ihdr)
        ihdr.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[animation.header.chunk.data.dropFirst(8)]))
        ihdr.withUnsafeBytes { PNGChunk.write(PNGChunk.ihdr, $0, into: &buffer) }
        for range in animation.sharedChunks {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        for range in frame.dataRanges {
            PNGChunk.write(PNGChunk.idat, UnsafeRawBufferPointer(rebasing: bytes[range]), into: &buffer)
        }
        PNGChunk.write(PNGChunk.iend, UnsafeRawBufferPointer(start: nil, count: 0), into: &buffer)

        return try buffer.withBytes(body)
    }
}
