import Benchmark

/// The download benchmarks: ImageDownloader against libcurl's multi interface called directly, both fetching from
/// a loopback server in this process, with decoding left out. Each family lives in its own file.
let benchmarks: @Sendable () -> Void = {
    throughputBenchmarks()
    coalescingBenchmarks()
    allocationBenchmarks()
}
