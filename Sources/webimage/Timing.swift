import Foundation

/// Milliseconds with one decimal, for text output.
func formatMilliseconds(_ ms: Double?) -> String {
    guard let ms else { return "-" }
    return String(format: "%.1f ms", ms)
}

/// Elapsed time of `body` in milliseconds.
func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let clock = ContinuousClock()
    var result: T?
    let elapsed = try clock.measure { result = try body() }
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    return (result!, ms)
}
