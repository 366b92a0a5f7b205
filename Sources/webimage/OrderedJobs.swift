import Foundation
import WebImageCore

/// Runs one job per input on up to N threads at once and hands the results over in the inputs' order.
///
/// Each thread takes the next input not yet taken, so at most N inputs are in flight and a slow input holds up
/// no thread but its own. A result is handed to `deliver` as soon as it and every result before it are ready;
/// results that finish early wait (a result is a small report, not an image). With one job everything runs on
/// the calling thread.
///
/// Thread-safe: `work` runs on many threads at once; `deliver` runs on one thread at a time, outside the lock,
/// in order.
final class OrderedJobs<Output: Sendable>: Sendable {
    private struct State {
        var taken = 0
        var delivered = 0
        var waiting: [Int: Output] = [:]
        /// Whether a thread is handing results over: only one does at a time, so that they go in order.
        var isDelivering = false

        /// The results ready to go next, in order, when no other thread is handing them over; the caller then
        /// hands them over, and asks again until there are none.
        mutating func takeReady() -> [Output] {
            var ready: [Output] = []
            while let output = waiting.removeValue(forKey: delivered) {
                ready.append(output)
                delivered += 1
            }
            isDelivering = !ready.isEmpty
            return ready
        }
    }

    private let count: Int
    private let state = Locked(State())

    private init(count: Int) {
        self.count = count
    }

    /// Runs `work` for each index in `0..<count` on `jobs` threads at most and calls `deliver` with each result,
    /// in index order; returns when every result has been delivered.
    static func run(
        count: Int,
        jobs: Int,
        work: @escaping @Sendable (Int) -> Output,
        deliver: @escaping @Sendable (Output) -> Void
    ) {
        let run = OrderedJobs(count: count)
        let threads = max(1, min(jobs, count))
        let done = DispatchGroup()
        for _ in 1..<threads {
            done.enter()
            // Threads rather than dispatch: the jobs are long and CPU-bound, and dispatch may run fewer at once
            // than were asked for.
            let thread = Thread {
                run.drain(work: work, deliver: deliver)
                done.leave()
            }
            thread.start()
        }
        run.drain(work: work, deliver: deliver)
        done.wait()
    }

    /// Takes inputs until none is left.
    private func drain(work: (Int) -> Output, deliver: (Output) -> Void) {
        while let index = next() {
            let output = work(index)
            var ready = state.withLock { state in
                state.waiting[index] = output
                return state.isDelivering ? [] : state.takeReady()
            }
            // Whoever took results hands them over, then takes those that came in meanwhile.
            while !ready.isEmpty {
                ready.forEach(deliver)
                ready = state.withLock { $0.takeReady() }
            }
        }
    }

    private func next() -> Int? {
        state.withLock { state in
            guard state.taken < count else { return nil }
            defer { state.taken += 1 }
            return state.taken
        }
    }
}
