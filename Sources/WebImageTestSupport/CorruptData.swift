#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Deterministic generators of damaged copies of valid files, for the bad-input tests.
public enum CorruptData {
    /// Prefixes of `data`: every length up to `dense`, then `count` lengths spread evenly over the rest.
    public static func truncations(of data: Data, dense: Int = 64, count: Int = 64) -> [Data] {
        var cuts = Set(0..<min(dense, data.count))
        if data.count > dense {
            for i in 0..<count {
                cuts.insert(dense + (data.count - dense) * i / count)
            }
            cuts.insert(data.count - 1)
        }
        return cuts.sorted().map { data.prefix($0) }
    }

    /// Copies of `data` with one byte in `range` replaced, `count` of them, chosen by a seeded generator.
    public static func byteFlips(of data: Data, in range: Range<Int>? = nil, count: Int = 200, seed: UInt64 = 1) -> [Data] {
        let span = range.map { $0.clamped(to: 0..<data.count) } ?? 0..<data.count
        guard !span.isEmpty else { return [] }
        var random = SplitMix64(seed: seed)
        var result: [Data] = []
        result.reserveCapacity(count)
        for _ in 0..<count {
            var copy = data
            let offset = span.lowerBound + Int(random.next() % UInt64(span.count))
            let index = copy.startIndex + offset
            var value = UInt8(truncatingIfNeeded: random.next())
            if value == copy[index] { value ^= 0xFF }
            copy[index] = value
            result.append(copy)
        }
        return result
    }

    /// A copy of `data` with the 4 bytes at `offset` set to `value`, big-endian (PNG chunk lengths, sizes).
    public static func settingUInt32BigEndian(_ value: UInt32, at offset: Int, in data: Data) -> Data {
        var copy = data
        let base = copy.startIndex + offset
        for i in 0..<4 {
            copy[base + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i)))
        }
        return copy
    }

    /// A copy of `data` with the 2 bytes at `offset` set to `value`, little-endian (GIF sizes).
    public static func settingUInt16LittleEndian(_ value: UInt16, at offset: Int, in data: Data) -> Data {
        var copy = data
        let base = copy.startIndex + offset
        copy[base] = UInt8(truncatingIfNeeded: value)
        copy[base + 1] = UInt8(truncatingIfNeeded: value >> 8)
        return copy
    }

    /// Bytes from a seeded generator.
    public static func randomBytes(count: Int, seed: UInt64) -> Data {
        var random = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }
}

/// A small, fast, seeded random number generator (SplitMix64), so generated inputs are the same on every run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
