import Benchmark
import BenchmarkNetwork
import BenchmarkPairs
import Foundation
import WebImage

/// A cold load: 1,000 distinct URLs of a 256 x 192 JPEG from the loopback server (a child process) into an empty
/// cache, end to end, through `ImageManager.loadImage` with `waitStoreCache`, so that each completion comes after
/// its image is decoded, in memory and written to disk. Each iteration uses a new ImageCache in a fresh temporary
/// directory, made before the timing; the directories are removed at the teardown (see `ColdLoadFixture.filled`).
///
/// The baseline is the sum of the plain operations: libcurl's multi interface called directly fetching 1,000 other
/// distinct URLs of the same bytes, then TurboJPEG decoding those bytes 1,000 times on this thread. Both sides have
/// six transfers in flight, six connections to the host and at most 64 in all, and send the same request headers.
///
/// Records each side's time and their ratio, this process's CPU time per image of each side, the baseline's two
/// parts, and the throughput ratio.
///
/// Two forms, one for each place the final image may be stored:
/// - memory and disk (`storeCacheType` `.all`, the default): the 1,000 decoded images (196 KB each) stay in the
///   memory tier until the iteration ends, so every one is decoded into pages the process has not touched yet, while
///   the baseline decodes into one buffer freed and reused;
/// - disk only (`.disk`, how a server warming a shared cache stores): the images go to the caller, which lets them
///   go, as the baseline does.
///
/// The memory-and-disk form also times, after each pair, TurboJPEG decoding into 1,000 buffers kept until the end
/// (freed after the timing), and records ours against the download part plus that: the same work with the pixels
/// kept, which tells the cost of keeping them from the cost of our pipeline.
func coldLoadBenchmarks() {
    coldLoadBenchmark(storing: .all, named: "memory and disk")
    coldLoadBenchmark(storing: .disk, named: "disk only")
}

private func coldLoadBenchmark(storing storeCacheType: ImageCacheType, named storeName: String) {
    let count = 1_000
    let downloadPart = BenchmarkMetric.custom("raw curl part (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    let decodePart = BenchmarkMetric.custom("TurboJPEG part (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    var configuration = Pairs.configuration(
        cpu: true,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 20,
        setup: ColdLoadFixture.setUp,
        teardown: ColdLoadFixture.tearDown
    )
    let keepingPart = BenchmarkMetric.custom(
        "TurboJPEG keeping its outputs part (μs)", polarity: .prefersSmaller, useScalingFactor: false
    )
    let keepingThroughput = BenchmarkMetric.custom(
        "throughput ours / (raw curl + TurboJPEG keeping outputs) (x1000)", polarity: .prefersLarger,
        useScalingFactor: false
    )
    let keeps = storeCacheType.includesMemory
    configuration.metrics += [Pairs.throughput, downloadPart, decodePart]
    if keeps { configuration.metrics += [keepingPart, keepingThroughput] }
    Benchmark(
        "Cold load 1000 x 256 px JPEG (download, decode, store \(storeName)): ours vs raw curl multi + TurboJPEG, alternating",
        configuration: configuration
    ) { benchmark in
        let fixture = ColdLoadFixture.slot.get()
        let clock = ContinuousClock()
        var context = ImageContext()
        context.storeCacheType = storeCacheType
        let pixelBytes = RawJPEG.decode(fixture.jpeg) * 4
        for _ in benchmark.scaledIterations {
            let ours = fixture.urls(count: count)
            let baseline = CStringList(fixture.urls(count: count))
            let scratch = ScratchCache("cold")
            let manager = ImageManager(cache: scratch.cache, loader: fixture.downloader)
            var oursTime = Duration.zero
            var download = Duration.zero
            var decode = Duration.zero
            Pairs.measure(benchmark, units: count) {
                oursTime = clock.measure {
                    manager.loadAll(ours, options: [.waitStoreCache], context: context, expecting: .none)
                }
            } baseline: {
                download = clock.measure {
                    fixture.raw.fetch(baseline, maxConcurrent: ColdLoadFixture.concurrency)
                }
                decode = clock.measure {
                    for _ in 0..<count { blackHole(RawJPEG.decode(fixture.jpeg)) }
                }
            }
            if keeps {
                var buffers: [UnsafeMutableRawPointer] = []
                let keeping = clock.measure { buffers = RawJPEG.decodeKeeping(fixture.jpeg, count: count, bytes: pixelBytes) }
                buffers.forEach { free($0) }
                benchmark.measurement(keepingPart, Pairs.microseconds(keeping))
                benchmark.measurement(
                    keepingThroughput, Pairs.microseconds(download + keeping) * 1000 / max(1, Pairs.microseconds(oursTime))
                )
            }
            scratch.check(expectingDiskEntries: count)
            fixture.removeOnClose(scratch)
            benchmark.measurement(downloadPart, Pairs.microseconds(download))
            benchmark.measurement(decodePart, Pairs.microseconds(decode))
            Pairs.recordThroughput(benchmark, ours: oursTime, baseline: download + decode)
        }
    }
}
