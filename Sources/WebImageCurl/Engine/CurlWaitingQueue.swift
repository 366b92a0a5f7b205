/// The transfers waiting to start, and the admission that picks the next one: high before normal before low, first in
/// first out or last in first out among equal priorities, passing over the transfers whose connection key
/// (``CurlConnectionKey``) has as many running as it may have connections, or all of them when every connection
/// allowed is in use. A value type with no I/O, owned by the curl thread.
///
/// libcurl queues a transfer it cannot connect and runs its whole-transfer timeout while it waits, so the engine
/// gives it only transfers it can connect at once: transfers wait here instead, where no clock runs. One key with
/// all its connections in use holds back only its own transfers.
///
/// Each key has a line of waiting transfers; the lines that may start one sit in a heap by the rank of their first,
/// so that picking the next transfer costs a logarithm of the lines, however many keys are full. Transfers of
/// ``CurlConnectionKey/uncounted`` are never held back.
struct CurlWaitingQueue<Element> {
    /// A transfer taken from the queue: its number and what the queue held for it.
    struct Entry {
        var id: CurlTransferID
        var element: Element
    }

    /// How many transfers of one key, and of all keys together, may run at once; 0 for no limit.
    struct Limits {
        var perKey = 0
        var total = 0
    }

    let order: CurlEngine.ExecutionOrder
    let limits: Limits
    private var lines: [CurlConnectionKey: Line] = [:]
    /// Where each waiting transfer is, for cancels and priority changes.
    private var places: [CurlTransferID: (key: CurlConnectionKey, priority: CurlRequest.Priority)] = [:]
    /// Entries for the counted lines that are open and have transfers waiting; stale ones are dropped at the top.
    private var ready = CurlReadyHeap()
    /// The transfers of counted keys that run.
    private var runningTotal = 0
    private var nextSequence: Int64 = 0
    private var nextStamp: UInt64 = 1

    init(order: CurlEngine.ExecutionOrder, limits: Limits = Limits()) {
        self.order = order
        self.limits = limits
    }

    /// How many transfers wait.
    var count: Int { places.count }

    var isEmpty: Bool { places.isEmpty }

    /// Adds a transfer at the back of its priority's lane in its key's line.
    mutating func enqueue(_ element: Element, id: CurlTransferID, priority: CurlRequest.Priority, key: CurlConnectionKey = .uncounted) {
        let sequence = nextSequence
        nextSequence += 1
        let rank = CurlReadyHeap.Rank(priority: priority.rawValue, position: order == .fifo ? -sequence : sequence)
        let previous = lines[key]?.firstRank(order)
        lines[key, default: Line()].lanes[priority.rawValue].append(Slot(id: id, element: element, sequence: sequence))
        lines[key, default: Line()].waiting += 1
        places[id] = (key, priority)
        if previous.map({ rank > $0 }) ?? true { lineChanged(key) }
    }

    /// Takes the next transfer that may start, counting it as running under its key until ``release(_:)``; nil
    /// when none may.
    mutating func dequeue() -> Entry? {
        var best: (rank: CurlReadyHeap.Rank, key: CurlConnectionKey)?
        if let rank = lines[.uncounted]?.firstRank(order) { best = (rank, .uncounted) }
        if hasRoomInTotal, let item = readyTop(), best.map({ item.rank > $0.rank }) ?? true {
            best = (item.rank, item.key)
            ready.popTop()
        }
        guard let key = best?.key, let slot = lines[key]?.popFirst(order) else { return nil }
        places[slot.id] = nil
        if key != .uncounted {
            lines[key, default: Line()].running += 1
            runningTotal += 1
        }
        lineChanged(key)
        return Entry(id: slot.id, element: slot.element)
    }

    /// Whether ``dequeue()`` would return a transfer.
    mutating func hasAdmissible() -> Bool {
        (lines[.uncounted]?.waiting ?? 0) > 0 || (hasRoomInTotal && readyTop() != nil)
    }

    /// Records that a transfer of `key` taken by ``dequeue()`` no longer runs, which may let another start.
    mutating func release(_ key: CurlConnectionKey) {
        guard key != .uncounted, let running = lines[key]?.running, running > 0 else { return }
        lines[key, default: Line()].running = running - 1
        runningTotal -= 1
        lineChanged(key)
    }

    /// Removes a waiting transfer; nil when it is not waiting.
    mutating func remove(_ id: CurlTransferID) -> Element? {
        guard let (key, priority) = places.removeValue(forKey: id),
              let slot = lines[key, default: Line()].lanes[priority.rawValue].remove(id) else { return nil }
        lines[key, default: Line()].waiting -= 1
        lineChanged(key)
        return slot.element
    }

    /// Moves a waiting transfer to the back of another priority's lane. Returns whether it was waiting.
    @discardableResult
    mutating func setPriority(_ id: CurlTransferID, _ priority: CurlRequest.Priority) -> Bool {
        guard let place = places[id] else { return false }
        guard place.priority != priority, let element = remove(id) else { return true }
        enqueue(element, id: id, priority: priority, key: place.key)
        return true
    }

    /// Takes every waiting transfer, in no particular order; the running ones stay counted.
    mutating func removeAll() -> [Element] {
        var all: [Element] = []
        for key in Array(lines.keys) {
            for priority in CurlRequest.Priority.allCases {
                all += lines[key, default: Line()].lanes[priority.rawValue].removeAll().map { $0.element }
            }
            lines[key, default: Line()].waiting = 0
            lineChanged(key)
        }
        places.removeAll()
        ready.removeAll()
        return all
    }

    private var hasRoomInTotal: Bool { limits.total <= 0 || runningTotal < limits.total }

    private func isOpen(_ line: Line) -> Bool { limits.perKey <= 0 || line.running < limits.perKey }

    /// The ready heap's top entry once the stale ones above it are dropped: that of the counted line whose first
    /// transfer goes first among the open lines.
    private mutating func readyTop() -> CurlReadyHeap.Item? {
        while let item = ready.top {
            if lines[item.key]?.stamp == item.stamp { return item }
            ready.popTop()
        }
        return nil
    }

    /// Records that `key`'s line may have a new first transfer or have opened or closed: its entries in the ready
    /// heap go stale, and a new one goes in when the line is open and has transfers waiting. A counted line with
    /// nothing waiting or running is forgotten; the uncounted one stays, with its storage, for the next transfer.
    private mutating func lineChanged(_ key: CurlConnectionKey) {
        guard key != .uncounted, let line = lines[key] else { return }
        guard line.waiting > 0 || line.running > 0 else {
            lines[key] = nil
            return
        }
        let stamp = nextStamp
        nextStamp += 1
        lines[key, default: Line()].stamp = stamp
        if line.waiting > 0, isOpen(line), let rank = line.firstRank(order) {
            ready.push(CurlReadyHeap.Item(rank: rank, key: key, stamp: stamp))
            if ready.count > 2 * lines.count + 64 { rebuildReady() }
        }
    }

    /// Makes the ready heap again from the lines, without its stale entries.
    private mutating func rebuildReady() {
        ready.removeAll()
        for (key, line) in lines where key != .uncounted && line.waiting > 0 && isOpen(line) {
            if let rank = line.firstRank(order) { ready.push(CurlReadyHeap.Item(rank: rank, key: key, stamp: line.stamp)) }
        }
    }
}
