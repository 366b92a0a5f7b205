/// The transfers waiting for a slot: high before normal before low, and first-in-first-out or last-in-first-out
/// among equal priorities. A value type with no I/O, owned by the curl thread.
struct CurlWaitingQueue<Element> {
    /// A waiting transfer: its number and what the queue holds for it.
    struct Entry {
        var id: CurlTransferID
        var element: Element
    }

    /// One lane per priority; `head` skips the entries already taken from the front.
    private struct Lane {
        var entries: [Entry?] = []
        var head = 0
        var count = 0

        mutating func append(_ entry: Entry) {
            entries.append(entry)
            count += 1
        }

        mutating func popFirst() -> Entry? {
            while head < entries.count {
                // Moved out, not copied: an entry holds a whole request.
                let entry = entries[head].take()
                head += 1
                if let entry {
                    count -= 1
                    compact()
                    return entry
                }
            }
            return nil
        }

        mutating func popLast() -> Entry? {
            while entries.count > head {
                if let entry = entries.removeLast() {
                    count -= 1
                    compact()
                    return entry
                }
            }
            return nil
        }

        mutating func remove(_ id: CurlTransferID) -> Entry? {
            guard let index = entries[head...].firstIndex(where: { $0?.id == id }), let entry = entries[index].take() else {
                return nil
            }
            count -= 1
            compact()
            return entry
        }

        /// Drops the taken front once it is more than half the storage, so the lane does not grow without bound.
        private mutating func compact() {
            if count == 0 {
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 32, head * 2 > entries.count {
                entries.removeFirst(head)
                head = 0
            }
        }
    }

    private var lanes = [Lane](repeating: Lane(), count: CurlRequest.Priority.allCases.count)
    private var priorities: [CurlTransferID: CurlRequest.Priority] = [:]
    let order: CurlEngine.ExecutionOrder

    init(order: CurlEngine.ExecutionOrder) {
        self.order = order
    }

    /// How many transfers wait.
    var count: Int { priorities.count }

    var isEmpty: Bool { priorities.isEmpty }

    /// Adds a transfer at the back of its priority's lane.
    mutating func enqueue(_ element: Element, id: CurlTransferID, priority: CurlRequest.Priority) {
        lanes[priority.rawValue].append(Entry(id: id, element: element))
        priorities[id] = priority
    }

    /// Takes the next transfer to start: the highest priority, then by the order.
    mutating func dequeue() -> Entry? {
        for priority in CurlRequest.Priority.allCases.reversed() where lanes[priority.rawValue].count > 0 {
            let entry = order == .fifo ? lanes[priority.rawValue].popFirst() : lanes[priority.rawValue].popLast()
            if let entry {
                priorities[entry.id] = nil
                return entry
            }
        }
        return nil
    }

    /// Removes a waiting transfer; nil when it is not waiting.
    mutating func remove(_ id: CurlTransferID) -> Element? {
        guard let priority = priorities.removeValue(forKey: id) else { return nil }
        return lanes[priority.rawValue].remove(id)?.element
    }

    /// Moves a waiting transfer to the back of another priority's lane. Returns whether it was waiting.
    @discardableResult
    mutating func setPriority(_ id: CurlTransferID, _ priority: CurlRequest.Priority) -> Bool {
        guard let current = priorities[id] else { return false }
        guard current != priority, let element = remove(id) else { return true }
        enqueue(element, id: id, priority: priority)
        return true
    }

    /// Takes every waiting transfer, in no particular order.
    mutating func removeAll() -> [Element] {
        var all: [Element] = []
        while let next = dequeue() { all.append(next.element) }
        return all
    }
}
