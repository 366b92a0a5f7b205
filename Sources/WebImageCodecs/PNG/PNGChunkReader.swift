internal import CPNG

/// Walks the chunks of a PNG file held in memory, from just after the signature, checking that each chunk lies
/// wholly inside the data before handing it out.
struct PNGChunkReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    /// A reader over `bytes`, a whole PNG file, starting at the first chunk.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.offset = PNGHeader.signature.count
    }

    /// The next chunk, or nil when the data ends exactly after the previous one.
    ///
    /// - Throws: `badImageData` when the data ends inside a chunk or a length is over PNG's maximum.
    mutating func next() throws(WebImageError) -> PNGChunk? {
        if offset == bytes.count { return nil }
        guard bytes.count - offset >= 12 else {
            throw .badImageData(.png, "the data ends inside a chunk header at byte \(offset)")
        }
        let length = bytes.bigEndianUInt32(at: offset)
        let type = bytes.bigEndianUInt32(at: offset + 4)
        guard length <= 0x7FFF_FFFF else {
            throw .badImageData(.png, "the \(PNGChunk.name(of: type)) chunk at byte \(offset) declares \(length) bytes, over PNG's maximum")
        }
        let dataStart = offset + 8
        guard bytes.count - dataStart - 4 >= Int(length) else {
            throw .badImageData(
                .png,
                "the \(PNGChunk.name(of: type)) chunk at byte \(offset) declares \(length) bytes but the data ends first"
            )
        }
        let chunk = PNGChunk(type: type, start: offset, data: dataStart..<(dataStart + Int(length)))
        offset = chunk.whole.upperBound
        return chunk
    }
}

extension PNGChunkReader {
    /// Walks every chunk of the PNG file in `bytes` and throws `badImageData` unless an `IEND` chunk is reached
    /// before the data ends: a file cut short must not pass for a whole one. Bytes after `IEND` are ignored.
    static func checkComplete(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        var reader = PNGChunkReader(bytes)
        while let chunk = try reader.next() {
            if chunk.type == PNGChunk.iend { return }
        }
        throw .badImageData(.png, "the data ends before the IEND chunk")
    }
}
