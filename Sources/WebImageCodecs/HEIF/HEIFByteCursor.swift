/// Reads big-endian fields and ISO-BMFF boxes from a range of bytes, answering nil, never trapping, when a field
/// would run past the end of its range.
///
/// Used to read what libheif 1.15 parses but does not report (see ``HEIFItemSizes``); only ever over bytes held
/// for the length of the read.
struct HEIFByteCursor {
    /// One box: its type, and the range of its payload (after the size and type, and after a large size).
    struct Box {
        var type: UInt32
        var payload: Range<Int>
    }

    let bytes: UnsafeRawBufferPointer
    /// The end of the range being read.
    let end: Int
    /// The next byte to read.
    private(set) var offset: Int

    /// A cursor over `range` of `bytes`, clamped to them.
    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        self.bytes = bytes
        self.end = min(max(range.upperBound, 0), bytes.count)
        self.offset = min(max(range.lowerBound, 0), self.end)
    }

    /// The bytes left to read.
    var remaining: Int { end - offset }

    /// An unsigned big-endian field of `width` bytes (0 to 8), or nil past the end.
    mutating func read(_ width: Int) -> UInt64? {
        guard width >= 0, width <= 8, remaining >= width else { return nil }
        var value: UInt64 = 0
        for i in 0..<width {
            value = value << 8 | UInt64(bytes[offset + i])
        }
        offset += width
        return value
    }

    /// A field of `width` bytes as an `Int`, or nil past the end or when it does not fit one.
    mutating func readInt(_ width: Int) -> Int? {
        guard let value = read(width), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// Skips `count` bytes; false, and nothing skipped, when fewer are left.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        offset += count
        return true
    }

    /// The version of a full box, its flags skipped; nil past the end.
    mutating func readFullBoxVersion() -> Int? {
        guard let header = read(4) else { return nil }
        return Int(header >> 24)
    }

    /// The next box, the cursor moved past it; nil at the end or when its header or size does not fit the
    /// range. A size of 0 runs to the end of the range, as ISO-BMFF says of the last box.
    mutating func nextBox() -> Box? {
        let start = offset
        guard let size32 = read(4), let type = read(4) else { return nil }
        var size = Int(size32)
        if size32 == 1 {
            guard let large = readInt(8) else { return nil }
            size = large
        } else if size32 == 0 {
            size = end - start
        }
        let headerLength = offset - start
        guard size >= headerLength, size <= end - start else { return nil }
        offset = start + size
        return Box(type: UInt32(type), payload: (start + headerLength)..<(start + size))
    }

    /// The four-character code `name` as a box type.
    static func type(_ name: StaticString) -> UInt32 {
        precondition(name.utf8CodeUnitCount == 4, "a box type has four characters")
        let p = name.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }
}
