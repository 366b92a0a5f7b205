/// Reads the orientation from the TIFF structure of an EXIF block (a JPEG's APP1 `Exif\0\0` segment).
///
/// The structure: a byte-order mark (`II` little-endian, `MM` big-endian), the number 42, the offset of IFD0;
/// IFD0 is a 2-byte entry count, then 12-byte entries (tag, type, count, value or offset). The orientation is
/// tag 0x0112, one SHORT (some writers use a LONG). Every read is checked against the block's bounds, and the
/// entry count is capped by the bytes there are, so a damaged block yields nil rather than a crash or a long loop.
enum JPEGExifOrientation {
    /// The EXIF orientation tag.
    static let tag: UInt16 = 0x0112

    /// The orientation IFD0 gives, or nil when the block is damaged or has no orientation entry. A value outside
    /// 1...8 reads as `up`, as other readers do.
    static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        let reader = Reader(bytes: tiff, bigEndian: bigEndian)
        guard reader.uint16(at: 2) == 42, let ifd = reader.uint32(at: 4).map(Int.init),
              let declared = reader.uint16(at: ifd) else { return nil }
        let first = ifd + 2
        let count = min(Int(declared), (tiff.count - first) / 12)
        for entry in 0..<max(0, count) {
            let offset = first + entry * 12
            guard reader.uint16(at: offset) == tag, let type = reader.uint16(at: offset + 2) else { continue }
            let value: Int?
            switch type {
            case 3: value = reader.uint16(at: offset + 8).map(Int.init)    // SHORT
            case 4: value = reader.uint32(at: offset + 8).map(Int.init)    // LONG
            default: value = nil
            }
            guard let value else { return nil }
            return ImageOrientation(exifValue: value)
        }
        return nil
    }

    /// Bounded reads of big- or little-endian integers.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let bigEndian: Bool

        func uint16(at offset: Int) -> UInt16? {
            guard offset >= 0, offset <= bytes.count - 2 else { return nil }
            let a = UInt16(bytes[offset])
            let b = UInt16(bytes[offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        func uint32(at offset: Int) -> UInt32? {
            guard offset >= 0, offset <= bytes.count - 4 else { return nil }
            var value: UInt32 = 0
            for k in 0..<4 {
                let byte = UInt32(bytes[offset + (bigEndian ? k : 3 - k)])
                value = value << 8 | byte
            }
            return value
        }
    }
}
