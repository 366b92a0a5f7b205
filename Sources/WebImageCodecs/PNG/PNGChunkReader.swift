internal import CPNG

/// Walks the chunks of a PNG file held in memory, from just after the signature, checking that each chunk lies
/// wholly inside the data before handing it out.
///
/// The reader can walk the first bytes of a longer file: chunks are then checked against the whole file's
/// length, and a chunk's data need not be held to be passed over (``bytesNeededForNextChunk`` says when its
/// length and type are not held yet).
struct PNGChunkReader {
    private let bytes: UnsafeRawBufferPointer
    private let totalCount: Int
    private(set) var offset: Int

    /// A reader over `bytes`, the first bytes of a PNG file of `totalCount` bytes (the whole file when nil),
    /// starting at the first chunk.
    init(_ bytes: UnsafeRawBufferPointer, totalCount: Int? = nil) {
        self.bytes = bytes
        self.totalCount = max(bytes.count, totalCount ?? bytes.count)
        self.offset = PNGHeader.signature.count
    }

    /// How many bytes from the start the next chunk's length and type need, when the bytes held end before
    /// them and the file does not; nil when ``next()`` can answer (with a chunk, nil or an error).
    var bytesNeededForNextChunk: Int? {
        guard offset < totalCount, totalCount - offset >= 12, offset + 8 > bytes.count else { return nil }
        return offset + 8
    }

    /// The next chunk, or nil when the data ends exactly after the previous one. Only its length and type are
    /// read: its data may lie past the bytes held.
    ///
    /// - Throws: `badImageData` when the data ends inside a chunk or a length is over PNG's maximum.
    mutating func next() throws(WebImageError) -> PNGChunk? {
        if offset == totalCount { return nil }
        guard totalCount - offset >= 12 else {
            throw .badImageData(.png, "the data ends inside a chunk header at byte \(offset)")
        }
        precondition(offset + 8 <= bytes.count, "the next chunk's header is not held; see bytesNeededForNextChunk")
        let length = bytes.bigEndianUInt32(at: offset)
        let type = bytes.bigEndianUInt32(at: offset + 4)
        guard length <= 0x7FFF_FFFF else {
            throw .badImageData(.png, "the \(PNGChunk.name(of: type)) chunk at byte \(offset) declares \(length) bytes, over PNG's maximum")
        }
        let dataStart = offset + 8
        guard totalCount - dataStart - 4 >= Int(length) else {
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
