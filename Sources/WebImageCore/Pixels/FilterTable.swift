/// Precomputed taps of a one-dimensional Catmull-Rom resampling filter: for each output position, the first
/// input index, the number of inputs, and their weights (summing to 1).
struct FilterTable: ~Copyable {
    private let starts: UnsafeMutablePointer<Int>
    private let counts: UnsafeMutablePointer<Int>
    private let table: UnsafeMutablePointer<Float>
    let maxTaps: Int
    let outputCount: Int

    /// - Parameters:
    ///   - inputCount: Samples in.
    ///   - outputCount: Samples out.
    ///   - scale: Input samples per output sample (above 1 when reducing).
    init(inputCount: Int, outputCount: Int, scale: Double) {
        let support = 2.0
        let filterScale = max(scale, 1)
        let radius = support * filterScale
        let maxTaps = max(1, Int((radius * 2).rounded(.up)) + 2)
        self.maxTaps = maxTaps
        self.outputCount = outputCount
        starts = .allocate(capacity: outputCount)
        counts = .allocate(capacity: outputCount)
        table = .allocate(capacity: outputCount * maxTaps)
        table.initialize(repeating: 0, count: outputCount * maxTaps)

        for x in 0..<outputCount {
            let center = (Double(x) + 0.5) * scale
            var low = max(0, Int((center - radius + 0.5).rounded(.down)))
            var high = min(inputCount, Int((center + radius + 0.5).rounded(.down)))
            if high <= low {
                // A tap must exist: the nearest input.
                low = min(inputCount - 1, max(0, Int(center)))
                high = low + 1
            }
            high = min(high, low + maxTaps)
            var total = 0.0
            for i in low..<high {
                let w = FilterTable.catmullRom((Double(i) - center + 0.5) / filterScale)
                table[x * maxTaps + (i - low)] = Float(w)
                total += w
            }
            if total != 0 {
                for k in 0..<(high - low) {
                    table[x * maxTaps + k] = Float(Double(table[x * maxTaps + k]) / total)
                }
            } else {
                table[x * maxTaps] = 1
            }
            starts[x] = low
            counts[x] = high - low
        }
    }

    deinit {
        starts.deallocate()
        counts.deallocate()
        table.deallocate()
    }

    func start(of x: Int) -> Int { starts[x] }
    func count(of x: Int) -> Int { counts[x] }
    func end(of x: Int) -> Int { starts[x] + counts[x] }
    func weights(of x: Int) -> UnsafeMutablePointer<Float> { table + x * maxTaps }

    /// Filters one row of `inputCount` samples into `outputCount` samples.
    func apply(from input: UnsafePointer<SIMD4<Float>>, to output: UnsafeMutablePointer<SIMD4<Float>>) {
        for x in 0..<outputCount {
            let start = starts[x]
            let taps = counts[x]
            let w = table + x &* maxTaps
            var sum = SIMD4<Float>.zero
            for k in 0..<taps {
                sum += input[start &+ k] * w[k]
            }
            output[x] = sum
        }
    }

    /// The Catmull-Rom cubic (a = -0.5): sharp but without the ringing of Lanczos on hard edges.
    static func catmullRom(_ t: Double) -> Double {
        let a = -0.5
        let x = abs(t)
        if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
        if x < 2 { return (((x - 5) * x + 8) * x - 4) * a }
        return 0
    }
}
