import Benchmark
import BenchmarkPairs
import Foundation
import WebImage

/// Many small downloads: 2,000 distinct 20 KB bodies from the loopback server, through ImageDownloader with
/// decoding off, against libcurl's multi interface called directly, with the same number of transfers in flight
/// and the same connection limits. Records the time of each side, their ratio, and the process's CPU time per
/// request of each side (the in-process server's CPU is in both).
func throughputBenchmarks() {
    let requests = 2_000
    for concurrency in [6, 32] {
        let configuration = Pairs.configuration(
            cpu: true,
            warmupIterations: 2,
            maxDuration: .seconds(20),
            maxIterations: 40,
            setup: DownloadFixture.setUp(concurrency: concurrency),
            teardown: DownloadFixture.tearDown
        )
        Benchmark(
            "Download 2000 x 20 KB, concurrency \(concurrency): ours vs raw curl multi, alternating",
            configuration: configuration
        ) { benchmark in
            let fixture = DownloadFixture.get()
            var context = ImageContext()
            context.imageCoder = NoDecodeCoder.shared
            for _ in benchmark.scaledIterations {
                let ours = fixture.urls(count: requests)
                let baseline = CStringList(fixture.urls(count: requests))
                Pairs.measure(benchmark, units: requests) {
                    fixture.downloader.downloadAll(ours, context: context)
                } baseline: {
                    fixture.raw.fetch(baseline, maxConcurrent: fixture.concurrency)
                }
            }
        }
    }
}
