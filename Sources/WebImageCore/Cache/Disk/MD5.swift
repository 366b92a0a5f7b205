/// MD5 (RFC 1321), for the disk cache's file names alone: SDWebImage names a key's file by the MD5 digest of the
/// key, and a cache shared with it must do the same. Not for anything that needs a secure hash.
///
/// The library's own, so that a package depending on the library builds no cryptography library for one digest.
/// Checked against RFC 1321's test suite and, in the tests, against swift-crypto on random inputs.
package enum MD5 {
    /// The 16-byte digest of `bytes`.
    package static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var state = State()
        let whole = bytes.count / 64 * 64
        var offset = 0
        while offset < whole {
            state.compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        // The tail, the 0x80 marker, zeros up to 56 bytes of the last block, then the length in bits, little-endian.
        var tail = [UInt8](repeating: 0, count: bytes.count - whole < 56 ? 64 : 128)
        for index in 0..<(bytes.count - whole) {
            tail[index] = bytes[whole + index]
        }
        tail[bytes.count - whole] = 0x80
        let bits = UInt64(truncatingIfNeeded: bytes.count) &* 8
        for index in 0..<8 {
            tail[tail.count - 8 + index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))
        }
        tail.withUnsafeBytes { tail in
            var start = 0
            while start < tail.count {
                state.compress(UnsafeRawBufferPointer(rebasing: tail[start..<start + 64]))
                start += 64
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(16)
        for word in [state.a, state.b, state.c, state.d] {
            for index in 0..<4 {
                digest.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(index))))
            }
        }
        return digest
    }

    /// The chaining variables, and the compression of one 64-byte block into them.
    private struct State {
        var a: UInt32 = 0x6745_2301
        var b: UInt32 = 0xEFCD_AB89
        var c: UInt32 = 0x98BA_DCFE
        var d: UInt32 = 0x1032_5476

        mutating func compress(_ block: UnsafeRawBufferPointer) {
            var (a, b, c, d) = (self.a, self.b, self.c, self.d)
            for round in 0..<64 {
                let mixed: UInt32
                let word: Int
                switch round {
                case 0..<16:
                    mixed = (b & c) | (~b & d)
                    word = round
                case 16..<32:
                    mixed = (d & b) | (~d & c)
                    word = (5 * round + 1) % 16
                case 32..<48:
                    mixed = b ^ c ^ d
                    word = (3 * round + 5) % 16
                default:
                    mixed = c ^ (b | ~d)
                    word = (7 * round) % 16
                }
                let sum = mixed &+ a &+ MD5.sines[round] &+ UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4 * word, as: UInt32.self))
                let shift = MD5.shifts[round]
                (a, d, c) = (d, c, b)
                b = b &+ (sum << shift | sum >> (32 - shift))
            }
            self.a &+= a
            self.b &+= b
            self.c &+= c
            self.d &+= d
        }
    }

    /// The rotation of each of the 64 steps.
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// The constant of each step: the integer part of 2^32 times the absolute value of sin(step + 1), in radians.
    private static let sines: [UInt32] = [
        0xD76A_A478, 0xE8C7_B756, 0x2420_70DB, 0xC1BD_CEEE, 0xF57C_0FAF, 0x4787_C62A, 0xA830_4613, 0xFD46_9501,
        0x6980_98D8, 0x8B44_F7AF, 0xFFFF_5BB1, 0x895C_D7BE, 0x6B90_1122, 0xFD98_7193, 0xA679_438E, 0x49B4_0821,
        0xF61E_2562, 0xC040_B340, 0x265E_5A51, 0xE9B6_C7AA, 0xD62F_105D, 0x0244_1453, 0xD8A1_E681, 0xE7D3_FBC8,
        0x21E1_CDE6, 0xC337_07D6, 0xF4D5_0D87, 0x455A_14ED, 0xA9E3_E905, 0xFCEF_A3F8, 0x676F_02D9, 0x8D2A_4C8A,
        0xFFFA_3942, 0x8771_F681, 0x6D9D_6122, 0xFDE5_380C, 0xA4BE_EA44, 0x4BDE_CFA9, 0xF6BB_4B60, 0xBEBF_BC70,
        0x289B_7EC6, 0xEAA1_27FA, 0xD4EF_3085, 0x0488_1D05, 0xD9D4_D039, 0xE6DB_99E5, 0x1FA2_7CF8, 0xC4AC_5665,
        0xF429_2244, 0x432A_FF97, 0xAB94_23A7, 0xFC93_A039, 0x655B_59C3, 0x8F0C_CC92, 0xFFEF_F47D, 0x8584_5DD1,
        0x6FA8_7E4F, 0xFE2C_E6E0, 0xA301_4314, 0x4E08_11A1, 0xF753_7E82, 0xBD3A_F235, 0x2AD7_D2BB, 0xEB86_D391,
    ]
}
