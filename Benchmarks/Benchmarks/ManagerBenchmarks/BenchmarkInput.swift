import Foundation

/// The input images in `Benchmarks/Inputs`, made by `Scripts/bench.sh`.
enum BenchmarkInput {
    /// The 256 x 192 JPEG, as caches hold many of.
    static let photo256: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Inputs")
        .appendingPathComponent("photo-256.jpg")

    /// The bytes of ``photo256``; fails the benchmark when the file is missing.
    static func photo256Data() -> Data {
        guard let data = try? Data(contentsOf: photo256) else {
            fatalError("missing benchmark input Benchmarks/Inputs/photo-256.jpg; run Scripts/bench.sh")
        }
        return data
    }
}
