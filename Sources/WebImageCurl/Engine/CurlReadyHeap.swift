/// A binary max-heap of the waiting queue's lines that may start a transfer, by the rank of their first transfer.
///
/// Entries are not updated in place: a line whose first transfer or openness changes gets a new entry with a new
/// stamp, and the queue drops entries whose stamp is no longer its line's when they reach the top.
struct CurlReadyHeap {
    /// Where a transfer stands among all waiting ones: a higher priority first, then the earlier (first in, first
    /// out) or the later (last in, first out) one.
    struct Rank: Comparable {
        var priority: Int
        /// The sequence number, negated for first in, first out, so that greater always goes first.
        var position: Int64

        static func < (lhs: Rank, rhs: Rank) -> Bool {
            lhs.priority != rhs.priority ? lhs.priority < rhs.priority : lhs.position < rhs.position
        }
    }

    struct Item {
        var rank: Rank
        var key: CurlConnectionKey
        /// The line's stamp when this entry was made.
        var stamp: UInt64
    }

    private(set) var items: [Item] = []

    var count: Int { items.count }
    var top: Item? { items.first }

    mutating func push(_ item: Item) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent].rank < items[child].rank else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func popTop() {
        guard !items.isEmpty else { return }
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { break }
            let right = left + 1
            let child = right < items.count && items[left].rank < items[right].rank ? right : left
            guard items[parent].rank < items[child].rank else { break }
            items.swapAt(parent, child)
            parent = child
        }
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
    }
}
