import Foundation

/// Choices a target makes about an input without taking bytes from it (decode options, chunk sizes), so that a
/// seed file stays a valid file: SplitMix64, seeded with the FNV-1a hash of the input. The same input always
/// makes the same choices, so a saved finding replays exactly.
public struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    /// Seeded from `data`.
    public init(seed data: Data) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        state = hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
