import Benchmark
import BenchmarkNetwork
import BenchmarkPairs
import Foundation
import WebImage

/// Many small downloads: 2,000 distinct 20 KB bodies from the loopback server (a child process), through
/// ImageDownloader with decoding off, against libcurl's multi interface called directly, with the same number of
/// transfers in flight, the same connection limits and the same request headers (the downloader's `Accept` and
/// `User-Agent`). Records the time of each side, their ratio, and this process's CPU time per request of each side.
///
/// Three forms of "decoding off":
/// - `downloadData`, completions on the default callback queue (one dispatch to a global queue per request);
/// - `downloadData`, completions inline on the downloader's thread, as the baseline handles its results;
/// - `downloadImage` with a coder that decodes nothing, which still goes through the decode executor.
func throughputBenchmarks() {
    let requests = 2_000
    for concurrency in [6, 32] {
        for form in ThroughputForm.allCases {
            let configuration = Pairs.configuration(
                cpu: true,
                warmupIterations: 2,
                maxDuration: .seconds(40),
                maxIterations: 80,
                setup: DownloadFixture.setUp(concurrency: concurrency),
                teardown: DownloadFixture.tearDown
            )
            Benchmark(
                "Download 2000 x 20 KB, concurrency \(concurrency), \(form.rawValue): ours vs raw curl multi, alternating",
                configuration: configuration
            ) { benchmark in
                let fixture = DownloadFixture.get()
                for _ in benchmark.scaledIterations {
                    let ours = fixture.urls(count: requests)
                    let baseline = CStringList(fixture.urls(count: requests))
                    Pairs.measure(benchmark, units: requests) {
                        form.run(fixture.downloader, ours)
                    } baseline: {
                        fixture.raw.fetch(baseline, maxConcurrent: fixture.concurrency)
                    }
                }
            }
        }
    }
}

enum ThroughputForm: String, CaseIterable {
    case data = "data"
    case dataInline = "data, inline completions"
    case noOpDecode = "image, no-op coder"

    func run(_ downloader: ImageDownloader, _ urls: [URL]) {
        switch self {
        case .data:
            downloader.downloadAllData(urls, context: ImageContext())
        case .dataInline:
            var context = ImageContext()
            context.callbackQueue = .inline
            downloader.downloadAllData(urls, context: context)
        case .noOpDecode:
            var context = ImageContext()
            context.imageCoder = NoDecodeCoder.shared
            downloader.downloadAll(urls, context: context)
        }
    }
}
