import Dispatch

/// Completions bound for the global concurrent queue, gathered on one thread and sent there in one dispatch.
///
/// Waking a global-queue thread costs far more than a completion handler that stores a result: on a virtual
/// machine, a wake-up of an idle core is a round trip through the hypervisor. A thread that produces many results
/// in quick succession (the downloader's curl thread in a burst of transfers) gathers them here and sends each
/// gathering as one work item, so that the wake-up is paid once per gathering instead of once per result.
///
/// The blocks of one gathering run in order, on one global-queue thread. So that one handler that blocks cannot
/// hold back the others for long, the drain hands what remains of its gathering to another global-queue thread
/// as soon as it has run for ``handOffAfter``: only the handlers gathered after a slow one wait for it, and once.
///
/// Not thread-safe: a batch belongs to the one thread that gathers into it and sends it. The blocks themselves are
/// `@Sendable` and run elsewhere.
package final class DeliveryBatch {
    /// How long one drain runs its gathering's blocks before it hands the rest to another thread.
    package static let handOffAfter: Duration = .milliseconds(2)

    private var blocks: [@Sendable () -> Void] = []
    /// Room made for the next gathering: the size of the last one, within bounds, so that a gathering usually
    /// takes one allocation and a burst long past does not keep a large one.
    private var expectedCount = 4
    private let queue: DispatchQueue

    /// A batch that sends its blocks to `queue` (a global concurrent queue).
    package init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// Whether nothing is gathered.
    package var isEmpty: Bool { blocks.isEmpty }

    /// How many blocks are gathered.
    package var count: Int { blocks.count }

    /// Gathers `block`, to be run by the next ``send()``.
    package func add(_ block: @escaping @Sendable () -> Void) {
        if blocks.capacity == 0 { blocks.reserveCapacity(expectedCount) }
        blocks.append(block)
    }

    /// Sends what is gathered to the queue as one work item (nothing when nothing is gathered) and empties the
    /// batch. A single block is dispatched as it is.
    package func send() {
        guard !blocks.isEmpty else { return }
        expectedCount = min(max(blocks.count, 4), 256)
        if blocks.count == 1 {
            queue.async(execute: blocks[0])
            blocks.removeAll(keepingCapacity: true)
        } else {
            // The array goes with the work item; the next gathering starts a new one.
            let gathered = blocks
            blocks = []
            let queue = queue
            queue.async { Self.drain(gathered[...], on: queue) }
        }
    }

    /// Runs `blocks` in order; once this drain has run for ``handOffAfter``, dispatches the rest as a new drain.
    private static func drain(_ blocks: ArraySlice<@Sendable () -> Void>, on queue: DispatchQueue) {
        let clock = ContinuousClock()
        let start = clock.now
        var index = blocks.startIndex
        while index < blocks.endIndex {
            blocks[index]()
            index += 1
            if index < blocks.endIndex, clock.now - start >= handOffAfter {
                let rest = blocks[index...]
                queue.async { drain(rest, on: queue) }
                return
            }
        }
    }
}
