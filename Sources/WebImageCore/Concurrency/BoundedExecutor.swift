import Dispatch
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

    /// A work item; what it returns runs after its slot is released (see ``submitWithFollowUp(_:)``).
    private typealias Item = @Sendable () -> (@Sendable () -> Void)?

    private struct State {
        var pending: [Item] = []
        var head = 0
        var running = 0
    }

    /// The most work items running at once.
    public let width: Int
    private let state = Locked(State())
    private let queue: DispatchQueue

    /// Creates an executor running at most `width` items at once (at least 1).
    public init(width: Int, qos: DispatchQoS.QoSClass = .userInitiated) {
        self.width = max(1, width)
        queue = DispatchQueue.global(qos: qos)
    }

    /// Creates an executor running at most `width` items at once (at least 1) on `queue`, a concurrent queue of
    /// the caller's: for work that blocks on IO, which must not hold the global queue's threads, which decoding
    /// and the callbacks share.
    package init(width: Int, queue: DispatchQueue) {
        self.width = max(1, width)
        self.queue = queue
    }

    /// Queues `work`; it runs on a global queue thread when a slot is free.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        enqueue {
            work()
            return nil
        }
    }

    /// Queues `work`; the follow-up it returns, if any, runs on the same global queue thread once the item's slot
    /// has been released, so that other work can start meanwhile.
    ///
    /// This is how a result computed here reaches a completion handler on a global queue without a second
    /// dispatch: the handler runs on a thread of the global concurrent queue that holds no slot of this executor.
    package func submitWithFollowUp(_ work: @escaping @Sendable () -> (@Sendable () -> Void)?) {
        enqueue(work)
    }

    private func enqueue(_ item: @escaping Item) {
        let startsNow: Bool = state.withLock { state in
            if state.running < width {
                state.running += 1
                return true
            }
            state.pending.append(item)
            return false
        }
        if startsNow {
            queue.async { self.run(item) }
        }
    }

    /// Work items waiting for a slot.
    public var waitingCount: Int {
        state.withLock { $0.pending.count - $0.head }
    }

    /// Slots taken now.
    var runningCount: Int {
        state.withLock { $0.running }
    }

    /// Runs `first` in a slot this thread holds, then the items waiting; a follow-up runs with the slot released,
    /// after which the thread takes a slot again if one is free and items wait.
    ///
    /// A follow-up may run for long or block (it is a completion handler). Items waiting at that moment are handed to
    /// another thread first, with the slot just released, so that they never wait on a follow-up: one that waits
    /// for a waiting item's result cannot deadlock the executor.
    private func run(_ first: @escaping Item) {
        var next: Item? = first
        while let work = next {
            if let followUp = work() {
                // The slot this thread holds goes with the next waiting item, if any, to another thread.
                if let waiting = takeItemOrRelease() {
                    queue.async { self.run(waiting) }
                }
                followUp()
                next = takeSlotAndItem()
            } else {
                next = takeItemOrRelease()
            }
        }
    }

    /// The next waiting item, keeping this thread's slot; nil, releasing the slot, when none waits.
    private func takeItemOrRelease() -> Item? {
        state.withLock { state in
            guard let item = Self.popPending(&state) else {
                state.running -= 1
                return nil
            }
            return item
        }
    }

    /// A slot and the next waiting item, when an item waits and a slot is free.
    private func takeSlotAndItem() -> Item? {
        state.withLock { state in
            guard state.running < width, let item = Self.popPending(&state) else { return nil }
            state.running += 1
            return item
        }
    }

    private static func popPending(_ state: inout State) -> Item? {
        guard state.head < state.pending.count else {
            state.pending.removeAll(keepingCapacity: true)
            state.head = 0
            return nil
        }
        let item = state.pending[state.head]
        // Release what the item captures as soon as it has been taken.
        state.pending[state.head] = { nil }
        state.head += 1
        if state.head > 64, state.head * 2 > state.pending.count {
            state.pending.removeFirst(state.head)
            state.head = 0
        }
        return item
    }
}
