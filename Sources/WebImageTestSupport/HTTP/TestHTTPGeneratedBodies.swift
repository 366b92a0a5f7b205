import WebImageCore

/// The bodies of `/generated`: N pseudo-random bytes from a seed, made once per size and seed and kept, so that
/// serving one costs a copy and not a generation (the download benchmarks ask for thousands).
///
/// Keeps at most ``capacity`` bytes; when a new body would pass it, the bodies kept so far are dropped. Thread-safe.
final class TestHTTPGeneratedBodies: Sendable {
    private struct Key: Hashable {
        var count: Int
        var seed: UInt64
    }

    private struct State {
        var bodies: [Key: [UInt8]] = [:]
        var bytes = 0
    }

    /// The most bytes kept.
    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int = 64 << 20) {
        self.capacity = capacity
    }

    /// `count` bytes of SplitMix64 output from `seed`, little-endian, the same on every call and every run.
    func body(count: Int, seed: UInt64) -> [UInt8] {
        let key = Key(count: count, seed: seed)
        if let kept = state.withLock({ $0.bodies[key] }) { return kept }
        let made = Self.generate(count: count, seed: seed)
        state.withLock { state in
            guard count <= capacity else { return }
            if state.bytes + count > capacity {
                state.bodies.removeAll()
                state.bytes = 0
            }
            if state.bodies.updateValue(made, forKey: key) == nil { state.bytes += count }
        }
        return made
    }

    private static func generate(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = 0
            while index < count {
                var word = random.next()
                let end = min(index + 8, count)
                while index < end {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
            initialized = count
        }
    }
}
