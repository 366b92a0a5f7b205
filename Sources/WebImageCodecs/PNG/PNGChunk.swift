internal import CPNG

/// One chunk of a PNG file held in memory: its type and where its parts lie, as offsets from the file's start.
///
/// A chunk is a 4-byte big-endian length, a 4-byte type, `length` bytes of data and a 4-byte CRC of the type
/// and the data.
struct PNGChunk: Sendable, Hashable {
    /// The four type letters as one big-endian number (`IHDR` is `0x4948_4452`).
    let type: UInt32
    /// Where the chunk starts (its length field).
    let start: Int
    /// Where its data lies.
    let data: Range<Int>

    /// The whole chunk: length, type, data and CRC.
    var whole: Range<Int> { start..<(data.upperBound + 4) }

    /// The type as text, for messages.
    var name: String { PNGChunk.name(of: type) }

    /// Throws `badImageData` when the stored CRC does not match the type and data.
    func checkCRC(in bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        let stored = bytes.bigEndianUInt32(at: data.upperBound)
        let computed = PNGChunk.crc(over: UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<data.upperBound]))
        guard stored == computed else {
            throw .badImageData(.png, "the CRC of the \(name) chunk at byte \(start) is wrong")
        }
    }

    /// The CRC-32 of `bytes` (zlib's), as PNG chunks carry it.
    static func crc(over bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = cpng_crc32(0, nil, 0)
        var rest = bytes
        // zlib takes a 32-bit length; chunks are at most 2^31 - 1 bytes, but stay general.
        while !rest.isEmpty, let base = rest.baseAddress {
            let count = min(rest.count, Int(UInt32.max >> 1))
            crc = cpng_crc32(crc, base.assumingMemoryBound(to: UInt8.self), UInt32(count))
            rest = UnsafeRawBufferPointer(rebasing: rest[(rest.startIndex + count)...])
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// Appends a chunk to `buffer`: length, type, `data`, and the CRC of type and data.
    static func write(_ type: UInt32, _ data: UnsafeRawBufferPointer, into buffer: inout [UInt8]) {
        let start = buffer.count
        appendBigEndian(UInt32(data.count), to: &buffer)
        appendBigEndian(type, to: &buffer)
        buffer.append(contentsOf: data)
        let crc = buffer.withUnsafeBytes { all in
            PNGChunk.crc(over: UnsafeRawBufferPointer(rebasing: all[(start + 4)...]))
        }
        appendBigEndian(crc, to: &buffer)
    }

    /// Appends `value` as four big-endian bytes.
    static func appendBigEndian(_ value: UInt32, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    /// The type letters of a chunk type, with unprintable bytes as `?`.
    static func name(of type: UInt32) -> String {
        let letters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        return String(decoding: letters.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    // The chunk types this coder reads or writes.
    static let ihdr: UInt32 = 0x4948_4452
    static let plte: UInt32 = 0x504C_5445
    static let idat: UInt32 = 0x4944_4154
    static let iend: UInt32 = 0x4945_4E44
    static let trns: UInt32 = 0x7452_4E53
    static let gama: UInt32 = 0x6741_4D41
    static let chrm: UInt32 = 0x6348_524D
    static let srgb: UInt32 = 0x7352_4742
    static let iccp: UInt32 = 0x6943_4350
    static let sbit: UInt32 = 0x7342_4954
    static let actl: UInt32 = 0x6163_544C
    static let fctl: UInt32 = 0x6663_544C
    static let fdat: UInt32 = 0x6664_4154
}
