import Benchmark

/// The cache benchmarks: the memory tier against Foundation's NSCache, the disk tier's store, open and trim,
/// and ImageCache's disk hit against a plain read and TurboJPEG decode. Each family lives in its own file.
let benchmarks: @Sendable () -> Void = {
    memoryCacheBenchmarks()
    diskCacheBenchmarks()
    imageCacheBenchmarks()
}
