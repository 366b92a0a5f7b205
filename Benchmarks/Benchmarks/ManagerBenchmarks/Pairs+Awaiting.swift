import Benchmark
import BenchmarkPairs

extension Pairs {
    /// As ``Pairs/measure(_:iteration:_:baseline:)``, for work that awaits: times `work` and `baseline` one after
    /// the other, the order alternating with `iteration` (by default the benchmark's current iteration), and
    /// records the same metrics (``Pairs/ours``, ``Pairs/baseline``, ``Pairs/ratio``).
    static func measureAwaiting(
        _ benchmark: Benchmark, iteration: Int? = nil, _ work: () async -> Void, baseline run: () async -> Void
    ) async {
        let first: Duration
        let second: Duration
        if (iteration ?? benchmark.currentIteration) % 2 == 0 {
            first = await elapsed(work)
            second = await elapsed(run)
        } else {
            second = await elapsed(run)
            first = await elapsed(work)
        }
        let a = microseconds(first)
        let b = max(1, microseconds(second))
        benchmark.measurement(ours, a)
        benchmark.measurement(baseline, b)
        benchmark.measurement(ratio, a * 1000 / b)
    }

    private static func elapsed(_ body: () async -> Void) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        await body()
        return start.duration(to: clock.now)
    }
}
