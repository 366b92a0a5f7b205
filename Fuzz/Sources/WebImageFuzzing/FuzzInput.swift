import Foundation

/// Reads typed values from the front of an input, for targets whose input is a recipe (an image to encode,
/// transformer parameters) rather than a file. Past the end every read gives zero, so every input is a valid
/// recipe, and a short one a simple one.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ data: Data) {
        bytes = Array(data)
    }

    /// How many bytes are left.
    public var remainingCount: Int { bytes.count - offset }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The low bit of the next byte.
    public mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// An integer in `range`, from as few bytes as cover it (one for a range of up to 256 values).
    ///
    /// - Precondition: The range spans fewer than 2^56 values.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound)
        precondition(span < 1 << 56, "a range of \(range) is too wide to read")
        var value: UInt64 = 0
        var covered: UInt64 = 0
        while covered < span {
            value = value << 8 | UInt64(byte())
            covered = covered << 8 | 0xff
        }
        return range.lowerBound + Int(value % (span + 1))
    }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[int(in: 0...(choices.count - 1))]
    }

    /// Up to `count` bytes: fewer when the input ends first.
    public mutating func bytes(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = end }
        return bytes[offset..<end]
    }

    /// Everything not read yet.
    public mutating func rest() -> ArraySlice<UInt8> {
        bytes(remainingCount)
    }
}
