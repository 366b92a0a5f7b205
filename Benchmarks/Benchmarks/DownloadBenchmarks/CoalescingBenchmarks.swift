import Benchmark
import BenchmarkNetwork
import BenchmarkPairs
import Foundation
import WebImage

/// Many callers of one URL: 1,000 `downloadImage` calls for one 20 KB body, waiting for every completion, against
/// one plain transfer of it with libcurl called directly.
///
/// Two forms: with a coder in each caller's context, as the task specifies (a caller with its own coder decodes
/// alone, so the no-op decode runs once per caller), and with the no-op coder as the downloader's own coder and
/// an empty context (one decode shared by all callers).
///
/// Two server latencies: none, where a loopback transfer takes a fraction of a millisecond, so the figure is the
/// cost of the 1,000 callers themselves and callers that come after the transfer has ended start another; and
/// 20 ms before the response, as a network adds, where the callers arrive while their one transfer is under way.
func coalescingBenchmarks() {
    let callers = 1_000
    let forms: [(name: String, context: ImageContext)] = [
        ("context coder", {
            var context = ImageContext()
            context.imageCoder = NoDecodeCoder.shared
            return context
        }()),
        ("downloader's coder", ImageContext()),
    ]
    for latency in [0, 20] {
        for form in forms {
            coalescingBenchmark(callers: callers, form: form, latencyMilliseconds: latency)
        }
    }
}

/// Transfers ours made for the 1,000 callers of one iteration.
private let transfers = BenchmarkMetric.custom("ours: transfers for 1000 callers", polarity: .prefersSmaller, useScalingFactor: false)

private func coalescingBenchmark(callers: Int, form: (name: String, context: ImageContext), latencyMilliseconds: Int) {
    var configuration = Pairs.configuration(
        cpu: true,
        warmupIterations: 3,
        maxDuration: .seconds(10),
        maxIterations: 300,
        setup: DownloadFixture.setUp(concurrency: 6),
        teardown: DownloadFixture.tearDown
    )
    configuration.metrics.append(transfers)
    let latency = latencyMilliseconds > 0 ? "\(latencyMilliseconds) ms server latency" : "no latency"
    Benchmark(
        "1000 callers of one URL (\(form.name), \(latency)) vs one plain transfer, alternating",
        configuration: configuration
    ) { benchmark in
        let fixture = DownloadFixture.get()
        for _ in benchmark.scaledIterations {
            let url = fixture.urls(count: 1, delayMilliseconds: latencyMilliseconds)
            let ours = Array(repeating: url[0], count: callers)
            let baseline = CStringList(fixture.urls(count: 1, delayMilliseconds: latencyMilliseconds))
            let requestsBefore = fixture.server.totalRequestCount
            Pairs.measure(benchmark, units: 1) {
                fixture.downloader.downloadAll(ours, context: form.context)
            } baseline: {
                fixture.raw.fetch(baseline, maxConcurrent: 1)
            }
            // Callers that arrive after the shared transfer has finished start a new one, as they should: the
            // number of transfers ours made is reported, not assumed.
            let requests = fixture.server.totalRequestCount - requestsBefore
            guard requests >= 2 else {
                fatalError("expected at least one request from each side, the server saw \(requests)")
            }
            benchmark.measurement(transfers, requests - 1)
        }
    }
}
