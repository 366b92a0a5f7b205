import Dispatch
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs work items on the global concurrent queue, at most ``width`` at a time, first in first out. Work
/// beyond the width waits in a queue; no thread is ever blocked waiting for a slot.
///
/// Decoding and transforming run here, so that a burst of cache hits or downloads uses the cores without
/// flooding the system with threads, and never on a cache's IO queue or the downloader's thread.
public final class BoundedExecutor: Sendable {
    /// The executor decodes and transforms run on by default: as wide as the machine has active cores.
    public static let decoding = BoundedExecutor(width: ProcessInfo.processInfo.activeProcessorCount)

    private struct State {
        var pending: [@Sendable () -> Void] = []
        var head = 0
        var running = 0
    }

    /// The most work items running at once.
    public let width: Int
    private let state = Mutex(State())
    private let queue: DispatchQueue

    /// Creates an executor running at most `width` items at once (at least 1).
    public init(width: Int, qos: DispatchQoS.QoSClass = .userInitiated) {
        self.width = max(1, width)
        queue = DispatchQueue.global(qos: qos)
    }

    /// Queues `work`; it runs on a global queue thread when a slot is free.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        let startsNow: Bool = state.withLock { state in
            if state.running < width {
                state.running += 1
                return true
            }
            state.pending.append(work)
            return false
        }
        if startsNow {
            queue.async { self.run(work) }
        }
    }

    /// Work items waiting for a slot.
    public var waitingCount: Int {
        state.withLock { $0.pending.count - $0.head }
    }

    private func run(_ first: @escaping @Sendable () -> Void) {
        var next: (@Sendable () -> Void)? = first
        while let work = next {
            work()
            next = state.withLock { state in
                guard state.head < state.pending.count else {
                    state.running -= 1
                    state.pending.removeAll(keepingCapacity: true)
                    state.head = 0
                    return nil
                }
                let item = state.pending[state.head]
                // Release what the item captures as soon as it has been taken.
                state.pending[state.head] = {}
                state.head += 1
                if state.head > 64, state.head * 2 > state.pending.count {
                    state.pending.removeFirst(state.head)
                    state.head = 0
                }
                return item
            }
        }
    }
}
