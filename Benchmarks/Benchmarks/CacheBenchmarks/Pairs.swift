import Benchmark

/// Back-to-back timing of two pieces of work, reported as custom metrics: each one's time and their ratio, so that
/// drift in the machine's speed cancels out of the ratio. The cache benchmarks share it.
enum Pairs {
    static let ours = BenchmarkMetric.custom("ours (μs)")
    static let baseline = BenchmarkMetric.custom("baseline (μs)")
    static let ratio = BenchmarkMetric.custom("ours / baseline (x1000)")

    /// For work of microseconds to milliseconds: up to 300 pairs in 8 seconds.
    static var configuration: Benchmark.Configuration {
        configuration()
    }

    /// A configuration with the pair metrics and the given limits, for longer work.
    static func configuration(
        warmupIterations: Int = 2,
        maxDuration: Duration = .seconds(8),
        maxIterations: Int = 300,
        setup: Benchmark.BenchmarkSetupHook? = nil,
        teardown: Benchmark.BenchmarkTeardownHook? = nil
    ) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [ours, baseline, ratio],
            warmupIterations: warmupIterations,
            maxDuration: maxDuration,
            maxIterations: maxIterations,
            setup: setup,
            teardown: teardown
        )
    }

    /// Times `work` and `baseline` one after the other, the order alternating with `iteration` (by default the
    /// benchmark's current iteration, which counts the iterations the runner makes).
    static func measure(_ benchmark: Benchmark, iteration: Int? = nil, _ work: () -> Void, baseline run: () -> Void) {
        let iteration = iteration ?? benchmark.currentIteration
        let clock = ContinuousClock()
        var first = Duration.zero
        var second = Duration.zero
        if iteration % 2 == 0 {
            first = clock.measure(work)
            second = clock.measure(run)
        } else {
            second = clock.measure(run)
            first = clock.measure(work)
        }
        let a = microseconds(first)
        let b = max(1, microseconds(second))
        benchmark.measurement(ours, a)
        benchmark.measurement(baseline, b)
        benchmark.measurement(ratio, a * 1000 / b)
    }

    static func microseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1_000_000 + Int(d.components.attoseconds / 1_000_000_000_000)
    }
}
