import Foundation

/// How the demo writes durations and sizes in its text output, and durations in its JSON output.
enum DemoFormat {
    /// A duration as milliseconds, for JSON.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// `1.25 s`, `85 ms`, `3.4 ms`, `12 µs`: three significant digits at most, in the unit that suits.
    static func duration(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        switch ms {
        case 1000...: return String(format: "%.2f s", ms / 1000)
        case 100...: return String(format: "%.0f ms", ms)
        case 1...: return String(format: "%.1f ms", ms)
        case 0.01...: return String(format: "%.0f µs", ms * 1000)
        default: return String(format: "%.1f µs", ms * 1000)
        }
    }

    /// `157,651 bytes (154 KiB)`, `0 bytes`.
    static func bytes(_ count: Int) -> String {
        let grouped = grouping(count)
        guard count >= 1024 else { return "\(grouped) bytes" }
        let kib = Double(count) / 1024
        return kib < 1024
            ? "\(grouped) bytes (\(String(format: "%.0f", kib)) KiB)"
            : "\(grouped) bytes (\(String(format: "%.1f", kib / 1024)) MiB)"
    }

    /// `157,651`: digits in groups of three.
    static func grouping(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (count < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// `1.2x`, `350x`: how many times `slow` is longer than `fast`.
    static func ratio(_ slow: Duration, _ fast: Duration) -> String {
        let fast = milliseconds(fast)
        guard fast > 0 else { return "-" }
        let ratio = milliseconds(slow) / fast
        return ratio < 10 ? String(format: "%.1fx", ratio) : String(format: "%.0fx", ratio)
    }
}
