import Benchmark

/// The manager benchmarks: ImageManager's memory hit, encoded-data memory hit, cold load and warm load, each against
/// the plain operations it is built from (a MemoryCache look-up; an EncodedMemoryCache look-up; libcurl and
/// TurboJPEG; a file read and TurboJPEG), timed back to back in the same run, and the memory hit and the cold load
/// of a manager observed through no-op backends against a plain one. Each benchmark lives in its own file.
let benchmarks: @Sendable () -> Void = {
    memoryHitBenchmarks()
    observedMemoryHitBenchmark()
    encodedHitBenchmarks()
    coldLoadBenchmarks()
    observedColdLoadBenchmark()
    warmLoadBenchmark()
}
