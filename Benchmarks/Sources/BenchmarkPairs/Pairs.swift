import Benchmark
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Back-to-back timing of two pieces of work, reported as custom metrics: each one's time and their ratio, so that
/// drift in the machine's speed cancels out of the ratio. The cache and download benchmarks share it.
public enum Pairs {
    public static let ours = BenchmarkMetric.custom("ours (μs)")
    public static let baseline = BenchmarkMetric.custom("baseline (μs)")
    public static let ratio = BenchmarkMetric.custom("ours / baseline (x1000)")

    /// The process's CPU time (user + system, every thread) per unit of work, in nanoseconds, for each side, and
    /// their ratio; recorded by ``measure(_:iteration:units:_:baseline:)``.
    public static let oursCPU = BenchmarkMetric.custom("ours CPU per request (ns)")
    public static let baselineCPU = BenchmarkMetric.custom("baseline CPU per request (ns)")
    public static let cpuRatio = BenchmarkMetric.custom("ours CPU / baseline CPU (x1000)")

    /// For work of microseconds to milliseconds: up to 300 pairs in 8 seconds.
    public static var configuration: Benchmark.Configuration {
        configuration()
    }

    /// A configuration with the pair metrics (and the CPU metrics when `cpu` is true) and the given limits, for
    /// longer work.
    public static func configuration(
        cpu: Bool = false,
        warmupIterations: Int = 2,
        maxDuration: Duration = .seconds(8),
        maxIterations: Int = 300,
        setup: Benchmark.BenchmarkSetupHook? = nil,
        teardown: Benchmark.BenchmarkTeardownHook? = nil
    ) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: cpu ? [ours, baseline, ratio, oursCPU, baselineCPU, cpuRatio] : [ours, baseline, ratio],
            warmupIterations: warmupIterations,
            maxDuration: maxDuration,
            maxIterations: maxIterations,
            setup: setup,
            teardown: teardown
        )
    }

    /// Times `work` and `baseline` one after the other, the order alternating with `iteration` (by default the
    /// benchmark's current iteration, which counts the iterations the runner makes).
    public static func measure(_ benchmark: Benchmark, iteration: Int? = nil, _ work: () -> Void, baseline run: () -> Void) {
        let (first, second) = alternate(iteration ?? benchmark.currentIteration, work, run)
        record(benchmark, first.wall, second.wall)
    }

    /// As ``measure(_:iteration:_:baseline:)``, and records the process's CPU time of each side divided by
    /// `units` (the requests each side makes) and the ratio of the two. The CPU of every thread of the process
    /// counts, so work that both sides cause in the process (a server in it, say) is in both.
    public static func measure(
        _ benchmark: Benchmark, iteration: Int? = nil, units: Int, _ work: () -> Void, baseline run: () -> Void
    ) {
        let (first, second) = alternate(iteration ?? benchmark.currentIteration, work, run)
        record(benchmark, first.wall, second.wall)
        let a = first.cpuNanoseconds / max(1, units)
        let b = max(1, second.cpuNanoseconds / max(1, units))
        benchmark.measurement(oursCPU, a)
        benchmark.measurement(baselineCPU, b)
        benchmark.measurement(cpuRatio, a * 1000 / b)
    }

    public static func microseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1_000_000 + Int(d.components.attoseconds / 1_000_000_000_000)
    }

    private struct Cost {
        var wall: Duration
        var cpuNanoseconds: Int
    }

    /// Runs `work` and `run`, `work` first on even iterations; returns the cost of `work`, then of `run`.
    private static func alternate(_ iteration: Int, _ work: () -> Void, _ run: () -> Void) -> (Cost, Cost) {
        if iteration % 2 == 0 {
            let first = cost(work)
            return (first, cost(run))
        }
        let second = cost(run)
        return (cost(work), second)
    }

    private static func cost(_ body: () -> Void) -> Cost {
        let clock = ContinuousClock()
        let before = processCPUNanoseconds()
        let wall = clock.measure(body)
        return Cost(wall: wall, cpuNanoseconds: max(0, processCPUNanoseconds() - before))
    }

    private static func record(_ benchmark: Benchmark, _ first: Duration, _ second: Duration) {
        let a = microseconds(first)
        let b = max(1, microseconds(second))
        benchmark.measurement(ours, a)
        benchmark.measurement(baseline, b)
        benchmark.measurement(ratio, a * 1000 / b)
    }

    /// User plus system time of the whole process so far (getrusage, RUSAGE_SELF), in nanoseconds.
    private static func processCPUNanoseconds() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        func nanoseconds(_ t: timeval) -> Int { Int(t.tv_sec) * 1_000_000_000 + Int(t.tv_usec) * 1000 }
        return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
    }
}
