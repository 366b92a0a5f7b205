import Benchmark

/// Benchmarks of DiskCache; filled in with the cache layer.
func diskCacheBenchmarks() {}
