import Benchmark
import BenchmarkPairs

extension Pairs {
    /// The baseline's time over ours: above 1000, ours does more of the same work per second.
    static let throughput = BenchmarkMetric.custom(
        "throughput ours / baseline (x1000)", polarity: .prefersLarger, useScalingFactor: false
    )

    /// Records ``throughput`` from the two sides' times, measured inside the work that ``Pairs`` times.
    static func recordThroughput(_ benchmark: Benchmark, ours: Duration, baseline: Duration) {
        benchmark.measurement(throughput, microseconds(baseline) * 1000 / max(1, microseconds(ours)))
    }
}
