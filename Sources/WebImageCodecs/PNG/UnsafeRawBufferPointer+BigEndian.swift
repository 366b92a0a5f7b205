extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit number at `offset`; the caller has checked that four bytes are there.
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    /// The big-endian 16-bit number at `offset`; the caller has checked that two bytes are there.
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }
}
