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
        // IHDR: the file's own fields with the frame's width and height.
        let ihdrStart = buffer.count
        appendBigEndian(13)
        appendBigEndian(PNGChunk.ihdr)
        appendBigEndian(UInt32(frame.size.width))
        appendBigEndian(UInt32(frame.size.height))
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[animation.header.chunk.data.dropFirst(8)]))
        appendCRC(from: ihdrStart)
        for range in animation.sharedChunks {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        for range in frame.dataRanges {
            appendChunk(PNGChunk.idat, UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        appendChunk(PNGChunk.iend, UnsafeRawBufferPointer(start: nil, count: 0))
        let result: Result<R, WebImageError> = buffer.withUnsafeBytes { png in
            do throws(WebImageError) {
                return .success(try body(png))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Appends a chunk: length, type, data, and the CRC of type and data.
    private mutating func appendChunk(_ type: UInt32, _ data: UnsafeRawBufferPointer) {
        let start = buffer.count
        appendBigEndian(UInt32(data.count))
        appendBigEndian(type)
        buffer.append(contentsOf: data)
        appendCRC(from: start)
    }

    /// Appends the CRC of the chunk that starts at `start` (over its type and data).
    private mutating func appendCRC(from start: Int) {
        let crc = buffer.withUnsafeBytes { all in
            PNGChunk.crc(over: UnsafeRawBufferPointer(rebasing: all[(start + 4)...]))
        }
        appendBigEndian(crc)
    }

    private mutating func appendBigEndian(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }
}
