import WebImageCore

/// The size of the pictures an HEVC sequence parameter set (SPS) declares, read as the decoder reads it.
///
/// libde265 allocates its pictures at the SPS's `pic_width_in_luma_samples` by `pic_height_in_luma_samples`,
/// whatever the HEIF boxes around it say (`ispe`), so a decode's memory is bounded by the largest SPS it may
/// meet. Only the fields before the two sizes are read (ITU-T H.265, 7.3.2.2).
enum HEVCPictureSize {
    /// The NAL unit type of a sequence parameter set.
    static let sequenceParameterSetType: UInt8 = 33

    /// The type of the NAL unit whose two-byte header starts `nal`, nil when it is shorter.
    static func nalType(_ nal: UnsafeRawBufferPointer) -> UInt8? {
        nal.count >= 2 ? (nal[0] >> 1) & 0x3F : nil
    }

    /// The picture size of the SPS NAL unit `nal` (header included, emulation prevention bytes in place); nil when
    /// it is not an SPS or ends before its sizes.
    static func ofSequenceParameterSet(_ nal: UnsafeRawBufferPointer) -> PixelSize? {
        guard nalType(nal) == sequenceParameterSetType else { return nil }
        var reader = BitReader(nal, from: 2)
        guard reader.skip(4) else { return nil }                         // sps_video_parameter_set_id
        guard let maxSubLayersMinus1 = reader.bits(3), reader.skip(1) else { return nil }
        guard skipProfileTierLevel(&reader, maxSubLayersMinus1: Int(maxSubLayersMinus1)) else { return nil }
        guard reader.expGolomb() != nil,                                  // sps_seq_parameter_set_id
              let chromaFormat = reader.expGolomb() else { return nil }
        if chromaFormat == 3, !reader.skip(1) { return nil }              // separate_colour_plane_flag
        guard let width = reader.expGolomb(), let height = reader.expGolomb(),
              width > 0, height > 0, width <= UInt64(Int32.max), height <= UInt64(Int32.max) else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Skips `profile_tier_level(1, maxSubLayersMinus1)` (7.3.3).
    private static func skipProfileTierLevel(_ reader: inout BitReader, maxSubLayersMinus1: Int) -> Bool {
        // The general profile (88 bits) and level (8 bits).
        guard reader.skip(96) else { return false }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let profile = reader.bits(1), let level = reader.bits(1) else { return false }
            profilePresent.append(profile == 1)
            levelPresent.append(level == 1)
        }
        if maxSubLayersMinus1 > 0, !reader.skip(2 * (8 - maxSubLayersMinus1)) { return false }
        for i in 0..<maxSubLayersMinus1 {
            if profilePresent[i], !reader.skip(88) { return false }
            if levelPresent[i], !reader.skip(8) { return false }
        }
        return true
    }

    /// Reads bits most significant first from a NAL unit's payload, dropping the emulation prevention bytes
    /// (a 3 after two zero bytes) as it goes.
    private struct BitReader {
        private let bytes: UnsafeRawBufferPointer
        private var index: Int
        private var zeros = 0
        private var current: UInt8 = 0
        private var bitsLeft = 0

        init(_ bytes: UnsafeRawBufferPointer, from index: Int) {
            self.bytes = bytes
            self.index = index
        }

        private mutating func nextByte() -> UInt8? {
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if zeros >= 2, byte == 3 {
                    zeros = 0
                    continue
                }
                zeros = byte == 0 ? zeros + 1 : 0
                return byte
            }
            return nil
        }

        mutating func bits(_ count: Int) -> UInt64? {
            var value: UInt64 = 0
            for _ in 0..<count {
                if bitsLeft == 0 {
                    guard let byte = nextByte() else { return nil }
                    current = byte
                    bitsLeft = 8
                }
                bitsLeft -= 1
                value = value << 1 | UInt64((current >> UInt8(bitsLeft)) & 1)
            }
            return value
        }

        mutating func skip(_ count: Int) -> Bool {
            bits(count) != nil || count == 0
        }

        /// An unsigned Exp-Golomb code, `ue(v)`; nil past the end or over 32 leading zeros.
        mutating func expGolomb() -> UInt64? {
            var leadingZeros = 0
            while true {
                guard let bit = bits(1) else { return nil }
                if bit == 1 { break }
                leadingZeros += 1
                guard leadingZeros <= 32 else { return nil }
            }
            guard let suffix = bits(leadingZeros) else { return nil }
            return (UInt64(1) << UInt64(leadingZeros)) - 1 + suffix
        }
    }
}
