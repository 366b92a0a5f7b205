import Benchmark
import BenchmarkNetwork
import Foundation
import WebImage

/// Heap allocations for 2,000 distinct 20 KB downloads at concurrency 6: through ImageDownloader (`downloadData`,
/// completions on the default queue) and through libcurl's multi interface called directly, with the same
/// connection limits and headers. A count, not a time: it does not move with the machine's noise, so it shows
/// what a change to the per-request path costs or saves. Divide by 2,000 for allocations per request; the URLs
/// are made before the measurement starts.
func allocationBenchmarks() {
    let requests = 2_000
    for side in AllocationSide.allCases {
        Benchmark(
            "Allocations for \(requests) x 20 KB downloads, concurrency 6: \(side.rawValue)",
            configuration: .init(
                metrics: [.mallocCountTotal],
                warmupIterations: 2,
                maxDuration: .seconds(10),
                maxIterations: 10,
                setup: DownloadFixture.setUp(concurrency: 6),
                teardown: DownloadFixture.tearDown
            )
        ) { benchmark in
            let fixture = DownloadFixture.get()
            let urls = fixture.urls(count: requests)
            let list = CStringList(urls)
            benchmark.startMeasurement()
            switch side {
            case .ours:
                fixture.downloader.downloadAllData(urls, context: ImageContext())
            case .raw:
                fixture.raw.fetch(list, maxConcurrent: fixture.concurrency)
            }
            benchmark.stopMeasurement()
        }
    }
}

enum AllocationSide: String, CaseIterable {
    case ours = "ours (data, default queue)"
    case raw = "raw curl multi"
}
