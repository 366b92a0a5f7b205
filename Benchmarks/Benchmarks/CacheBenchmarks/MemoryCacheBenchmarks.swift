import Benchmark

/// Benchmarks of MemoryCache; filled in with the cache layer.
func memoryCacheBenchmarks() {}
