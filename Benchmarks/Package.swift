// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The library is this package's parent directory; SwiftPM names a path dependency after its folder, which
// depends on where the repository was cloned, so the name is read from the path.
let libraryPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
    ],
    targets: [
        // The baselines: each C library called directly, with the flags our coders use.
        .target(
            name: "CRawCodecs",
            linkerSettings: [
                .linkedLibrary("turbojpeg"),
                .linkedLibrary("png16"),
                .linkedLibrary("webp"),
                .linkedLibrary("gif"),
                .linkedLibrary("avif"),
                .linkedLibrary("jxl"),
                .linkedLibrary("heif"),
            ]
        ),
        // libcurl's multi interface called directly: the baseline of the download benchmarks.
        .target(name: "CRawCurl", linkerSettings: [.linkedLibrary("curl")]),
        // Back-to-back timing of ours and a baseline, shared by the benchmark targets.
        .target(name: "BenchmarkPairs", dependencies: [.product(name: "Benchmark", package: "benchmark")]),
        // The loopback server (a child process) and the raw libcurl client of the download and manager benchmarks.
        .target(
            name: "BenchmarkNetwork",
            dependencies: ["CRawCurl", .product(name: "WebImage", package: libraryPackage)]
        ),
        // Single decodes for instruction counts under callgrind (Scripts/bench.sh --instructions).
        .executableTarget(name: "RawDecode", dependencies: ["CRawCodecs"], path: "Tools/RawDecode"),
        .executableTarget(
            name: "OurDecode",
            dependencies: [.product(name: "WebImage", package: libraryPackage)],
            path: "Tools/OurDecode"
        ),
        // Our resize and blur timed in one process, against pyvips (Scripts/bench-transform.sh).
        .executableTarget(
            name: "TransformTiming",
            dependencies: [.product(name: "WebImage", package: libraryPackage)],
            path: "Tools/TransformTiming"
        ),
        // Our side of the comparison with the libraries users would pick instead (Benchmarks/peers/run.sh).
        .executableTarget(
            name: "PeerTiming",
            dependencies: ["CRawCodecs", .product(name: "WebImage", package: libraryPackage)],
            path: "Tools/PeerTiming"
        ),
        // The loopback server of the download benchmarks, run as a child process.
        .executableTarget(
            name: "LoopbackServer",
            dependencies: [.product(name: "WebImageTestSupport", package: libraryPackage)],
            path: "Tools/LoopbackServer"
        ),
        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [
                "BenchmarkPairs",
                "CRawCodecs",
                .product(name: "WebImage", package: libraryPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CacheBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                "CRawCodecs",
                .product(name: "WebImage", package: libraryPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DownloadBenchmarks",
            dependencies: [
                "BenchmarkPairs",
                "BenchmarkNetwork",
                .product(name: "WebImage", package: libraryPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DownloadBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ManagerBenchmarks",
            dependencies: [
                "BenchmarkPairs",
                "BenchmarkNetwork",
                "CRawCodecs",
                .product(name: "WebImage", package: libraryPackage),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Benchmarks/ManagerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
