import Benchmark

/// Benchmarks of ImageCache; filled in with the cache layer.
func imageCacheBenchmarks() {}
