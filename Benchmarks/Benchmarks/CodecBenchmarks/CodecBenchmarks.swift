import Benchmark
import CRawCodecs
import Foundation
import WebImage

/// Our decoders against the C libraries called directly, side by side in one run; see `Scripts/bench.sh`,
/// which makes the inputs and prints the ratios.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .mallocCountLarge, .peakMemoryResident],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(4),
        maxIterations: 300
    )

    let cases: [(name: String, file: String, coder: any ImageCoding, raw: RawDecode)] = [
        ("JPEG", "photo-4000x3000.jpg", JPEGCoder(), raw_jpeg_decode),
        ("PNG", "photo-2000x1500.png", PNGCoder(), raw_png_decode),
        ("WebP", "photo-2000x1500.webp", WebPCoder(), raw_webp_decode),
        ("GIF", "photo-1000x750.gif", GIFCoder(), raw_gif_decode),
        ("AVIF", "photo-2000x1500.avif", AVIFCoder(), raw_avif_decode),
        ("JPEG XL", "photo-2000x1500.jxl", JXLCoder(), raw_jxl_decode),
        ("HEIF", "photo-2000x1500.heic", HEIFCoder(), raw_heif_decode),
    ]

    for item in cases {
        let data = Inputs.load(item.file)
        let coder = item.coder
        let raw = item.raw

        // Ours and the C baseline timed back to back in every iteration, in alternating order, so that drift in
        // the machine's speed cancels out of the ratio.
        Benchmark("\(item.name) decode: ours vs C, alternating", configuration: Pairs.configuration) { benchmark in
            for i in benchmark.scaledIterations {
                Pairs.measure(benchmark, iteration: i) {
                    blackHole(Inputs.decoded { try coder.decode(data, options: ImageDecodeOptions()) })
                } baseline: {
                    blackHole(Inputs.decode(raw, data, into: nil))
                }
            }
        }

        Benchmark("\(item.name) decode: ours") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try coder.decode(data, options: ImageDecodeOptions()))
            }
        }

        Benchmark("\(item.name) decode: C, fresh buffer") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Inputs.decode(raw, data, into: nil))
            }
        }

        let size = Inputs.size(raw, data)
        let reused = UnsafeMutablePointer<UInt8>.allocate(capacity: size.width * size.height * 4)
        reused.initialize(repeating: 0, count: size.width * size.height * 4)
        Benchmark("\(item.name) decode: C, reused buffer") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(Inputs.decode(raw, data, into: reused))
            }
        }
    }

    // Thumbnails: a DCT-scaled decode plus a short resample, against a full decode plus a long resample. Two
    // inputs: a photo with sensor-like noise (much entropy-coded data, which DCT scaling still has to read) and
    // a smoother one, as images served on the web usually are.
    let jpeg = JPEGCoder()
    let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(square: 256))
    for (label, file) in [("noisy", "photo-4000x3000.jpg"), ("smooth", "photo-4000x3000-smooth.jpg")] {
        let photo = Inputs.load(file)
        Benchmark("JPEG thumbnail 256 (\(label)): reduced vs full + downscale, alternating", configuration: Pairs.configuration) { benchmark in
            for i in benchmark.scaledIterations {
                Pairs.measure(benchmark, iteration: i) {
                    blackHole(Inputs.decoded { try jpeg.decode(photo, options: thumbnail) })
                } baseline: {
                    let full = Inputs.decoded { try jpeg.decode(photo, options: ImageDecodeOptions()) }
                    let target = full.pixelSize.scaled(toFit: PixelSize(square: 256))
                    blackHole(Inputs.decoded { try full.pixels.resampled(to: target, hasAlpha: false) })
                }
            }
        }
        Benchmark("JPEG thumbnail 256 (\(label)): ours, reduced decode") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try jpeg.decode(photo, options: thumbnail))
            }
        }
        Benchmark("JPEG thumbnail 256 (\(label)): ours, full decode + downscale") { benchmark in
            for _ in benchmark.scaledIterations {
                let full = try jpeg.decode(photo, options: ImageDecodeOptions())
                let target = full.pixelSize.scaled(toFit: PixelSize(square: 256))
                blackHole(try full.pixels.resampled(to: target, hasAlpha: false))
            }
        }
    }
}

/// Back-to-back timing of two pieces of work, reported as custom metrics: each one's time and their ratio.
enum Pairs {
    static let ours = BenchmarkMetric.custom("ours (μs)")
    static let baseline = BenchmarkMetric.custom("baseline (μs)")
    static let ratio = BenchmarkMetric.custom("ours / baseline (x1000)")

    static var configuration: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [ours, baseline, ratio],
            warmupIterations: 2,
            maxDuration: .seconds(8),
            maxIterations: 300
        )
    }

    /// Times `work` and `baseline` one after the other, the order alternating with `iteration`.
    static func measure(_ benchmark: Benchmark, iteration: Int, _ work: () -> Void, baseline run: () -> Void) {
        let clock = ContinuousClock()
        var first = Duration.zero
        var second = Duration.zero
        if iteration % 2 == 0 {
            first = clock.measure(work)
            second = clock.measure(run)
        } else {
            second = clock.measure(run)
            first = clock.measure(work)
        }
        let a = microseconds(first)
        let b = max(1, microseconds(second))
        benchmark.measurement(ours, a)
        benchmark.measurement(baseline, b)
        benchmark.measurement(ratio, a * 1000 / b)
    }

    private static func microseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1_000_000 + Int(d.components.attoseconds / 1_000_000_000_000)
    }
}

typealias RawDecode = @convention(c) (
    UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
) -> Int32

/// The benchmark inputs, made by `Scripts/bench.sh` in `Benchmarks/Inputs`.
enum Inputs {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Inputs")

    static func load(_ name: String) -> Data {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else {
            fatalError("missing benchmark input Benchmarks/Inputs/\(name); run Scripts/bench.sh")
        }
        return data
    }

    /// The result of `work`; traps on failure, since the inputs are known good and a failing decode would
    /// otherwise look fast.
    static func decoded<T>(_ work: () throws -> T) -> T {
        do {
            return try work()
        } catch {
            fatalError("a benchmark input failed to decode: \(error)")
        }
    }

    /// Decodes with a raw C baseline; traps on failure, since the inputs are known good.
    static func decode(_ raw: RawDecode, _ data: Data, into output: UnsafeMutablePointer<UInt8>?) -> Int32 {
        var width: Int32 = 0
        var height: Int32 = 0
        let result = data.withUnsafeBytes { bytes in
            raw(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, output, &width, &height)
        }
        precondition(result == 0, "the C baseline failed to decode its input")
        return width &* height
    }

    /// The image size, from one raw decode.
    static func size(_ raw: RawDecode, _ data: Data) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        let result = data.withUnsafeBytes { bytes in
            raw(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, nil, &width, &height)
        }
        precondition(result == 0, "the C baseline failed to decode its input")
        return (Int(width), Int(height))
    }
}
