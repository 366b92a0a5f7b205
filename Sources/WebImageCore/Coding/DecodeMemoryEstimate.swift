/// The memory one decode will hold at its peak, worked out from the headers before anything is allocated: the
/// buffers that are alive at the same time, each named, summed.
///
/// Coders build one and check it with ``ImageDecodeOptions/checkDecodeMemory(_:format:)`` before they allocate,
/// so that a few kilobytes whose header promises a small enough image cannot make the C library take gigabytes
/// for what it keeps besides the pixels (libjpeg's coefficients, libwebp's lossless image, a compositing canvas).
///
/// ```swift
/// var estimate = DecodeMemoryEstimate()
/// estimate.add("output", pixels: target)                       // 4 bytes a pixel
/// estimate.add("whole-image coefficients", bytes: coefficients)
/// try options.checkDecodeMemory(estimate, format: .jpeg)        // imageTooLarge over the budget
/// ```
///
/// Sizes come from untrusted headers: every sum and product saturates at `Int.max` instead of overflowing.
public struct DecodeMemoryEstimate: Sendable, Hashable, CustomStringConvertible {
    /// One buffer, or one kind of buffer, of the decode.
    public struct Part: Sendable, Hashable {
        /// What the memory holds ("output", "canvas", "whole-image coefficients").
        public var name: String
        /// Its size in bytes.
        public var bytes: Int
    }

    /// The parts, in the order they were added; parts of zero bytes are left out.
    public private(set) var parts: [Part] = []

    /// Creates an empty estimate.
    public init() {}

    /// Adds `bytes` bytes named `name`; a part of that name already there grows instead.
    public mutating func add(_ name: String, bytes: Int) {
        guard bytes > 0 else { return }
        if let index = parts.firstIndex(where: { $0.name == name }) {
            parts[index].bytes = DecodeMemoryEstimate.sum(parts[index].bytes, bytes)
        } else {
            parts.append(Part(name: name, bytes: bytes))
        }
    }

    /// Adds `count` buffers of RGBA pixels (4 bytes a pixel) of `size`, named `name`.
    public mutating func add(_ name: String, pixels size: PixelSize, count: Int = 1) {
        guard !size.isEmpty, count > 0 else { return }
        add(name, bytes: DecodeMemoryEstimate.product(size.pixelCount, 4, count))
    }

    /// Adds every part of `other`.
    public mutating func add(_ other: DecodeMemoryEstimate) {
        for part in other.parts { add(part.name, bytes: part.bytes) }
    }

    /// The sum of the parts, saturating at `Int.max`.
    public var totalBytes: Int {
        parts.reduce(0) { DecodeMemoryEstimate.sum($0, $1.bytes) }
    }

    /// The total and the parts, largest first: `"1,144 MiB (whole-image coefficients 763 MiB, output 381 MiB)"`.
    public var description: String {
        let total = DecodeMemoryEstimate.format(bytes: totalBytes)
        guard !parts.isEmpty else { return total }
        let listed = parts.sorted { $0.bytes > $1.bytes }
            .map { "\($0.name) \(DecodeMemoryEstimate.format(bytes: $0.bytes))" }
        return "\(total) (\(listed.joined(separator: ", ")))"
    }

    /// `a + b`, saturating at `Int.max`.
    public static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : result
    }

    /// The product of `factors`, saturating at `Int.max` (factors are sizes and counts, never negative).
    public static func product(_ factors: Int...) -> Int {
        var result = 1
        for factor in factors {
            let (next, overflow) = result.multipliedReportingOverflow(by: max(0, factor))
            if overflow { return Int.max }
            result = next
        }
        return result
    }

    /// A byte count for people: whole mebibytes with thousands separators from 10 MiB, one decimal below,
    /// kibibytes under 1 MiB (`"763 MiB"`, `"1,144 MiB"`, `"2.5 MiB"`, `"12 KiB"`).
    public static func format(bytes: Int) -> String {
        let mebibyte = 1 << 20
        if bytes >= 10 * mebibyte {
            let rounded = bytes / mebibyte + (bytes % mebibyte >= mebibyte / 2 ? 1 : 0)
            return "\(grouped(rounded)) MiB"
        }
        if bytes >= mebibyte {
            let tenths = (bytes * 10 + mebibyte / 2) / mebibyte
            return "\(tenths / 10).\(tenths % 10) MiB"
        }
        return "\((bytes + 1023) / 1024) KiB"
    }

    /// `value` with a comma between groups of three digits.
    private static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
