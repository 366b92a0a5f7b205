import Benchmark
import BenchmarkPairs
import CoreMetrics
import Foundation
import Logging
import WebImage

/// The cost of observing cold loads when nothing is listening: 500 distinct URLs of the 256 x 192 JPEG from the
/// loopback server into an empty cache (download, decode, store on disk, `waitStoreCache`), through a manager,
/// cache and downloader given a logger over swift-log's no-op handler and swift-metrics' no-op factory, against
/// the same without them. Both sides use the cold-load fixture's server, fresh caches made before the timing and
/// removed when the fixture closes, and six transfers at a time.
func observedColdLoadBenchmark() {
    let count = 500
    Benchmark(
        "Cold load 500 x 256 px JPEG: with a no-op logger and metrics vs without, alternating",
        configuration: Pairs.configuration(
            cpu: true, warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 20,
            setup: ColdLoadFixture.setUp, teardown: ColdLoadFixture.tearDown
        )
    ) { benchmark in
        let fixture = ColdLoadFixture.slot.get()
        let logger = Logger(label: "benchmark") { _ in SwiftLogNoOpLogHandler() }
        var context = ImageContext()
        context.storeCacheType = .disk
        for _ in benchmark.scaledIterations {
            let observedURLs = fixture.urls(count: count)
            let plainURLs = fixture.urls(count: count)
            let observedScratch = ScratchCache("cold-observed", logger: logger, metricsFactory: NOOPMetricsHandler.instance)
            let plainScratch = ScratchCache("cold-plain")
            let observed = ImageManager(
                cache: observedScratch.cache, loader: fixture.downloader, logger: logger,
                metricsFactory: NOOPMetricsHandler.instance
            )
            let plain = ImageManager(cache: plainScratch.cache, loader: fixture.downloader)
            Pairs.measure(benchmark, units: count) {
                observed.loadAll(observedURLs, options: [.waitStoreCache], context: context, expecting: .none)
            } baseline: {
                plain.loadAll(plainURLs, options: [.waitStoreCache], context: context, expecting: .none)
            }
            observedScratch.check(expectingDiskEntries: count)
            plainScratch.check(expectingDiskEntries: count)
            fixture.removeOnClose(observedScratch)
            fixture.removeOnClose(plainScratch)
        }
    }
}
