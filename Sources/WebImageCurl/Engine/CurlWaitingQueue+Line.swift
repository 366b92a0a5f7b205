extension CurlWaitingQueue {
    /// A waiting transfer as a lane holds it: its number in the order of arrival.
    struct Slot {
        var id: CurlTransferID
        var element: Element
        var sequence: Int64
    }

    /// The transfers of one priority in one line, in the order they came; `head` skips the slots already taken from
    /// the front. When it holds any, the first and the last slot are filled, so both ends are read without a search.
    struct Lane {
        private var slots: [Slot?] = []
        private var head = 0
        private(set) var count = 0

        var first: Slot? { count > 0 ? slots[head] : nil }
        var last: Slot? { count > 0 ? slots[slots.count - 1] : nil }

        mutating func append(_ slot: Slot) {
            slots.append(slot)
            count += 1
        }

        mutating func popFirst() -> Slot? {
            guard count > 0 else { return nil }
            // Moved out, not copied: a slot holds a whole request.
            let slot = slots[head].take()
            count -= 1
            trim()
            return slot
        }

        mutating func popLast() -> Slot? {
            guard count > 0 else { return nil }
            let slot = slots.removeLast()
            count -= 1
            trim()
            return slot
        }

        mutating func remove(_ id: CurlTransferID) -> Slot? {
            guard count > 0, let index = slots[head...].firstIndex(where: { $0?.id == id }), let slot = slots[index].take() else {
                return nil
            }
            count -= 1
            trim()
            return slot
        }

        mutating func removeAll() -> [Slot] {
            let all = slots[head...].compactMap { $0 }
            slots.removeAll()
            head = 0
            count = 0
            return all
        }

        /// Skips the empty slots at both ends, and drops the taken front once it is more than half the storage, so
        /// the lane does not grow without bound.
        private mutating func trim() {
            guard count > 0 else {
                slots.removeAll(keepingCapacity: true)
                head = 0
                return
            }
            while slots[head] == nil { head += 1 }
            while slots[slots.count - 1] == nil { slots.removeLast() }
            if head > 32, head * 2 > slots.count {
                slots.removeFirst(head)
                head = 0
            }
        }
    }

    /// The waiting transfers of one connection key, one lane per priority, and how many of the key's transfers run.
    struct Line {
        var lanes = [Lane](repeating: Lane(), count: CurlRequest.Priority.allCases.count)
        var waiting = 0
        var running = 0
        /// Changes whenever the first transfer or the openness of the line may have changed; the ready heap's entries
        /// for the line are current only while they carry it. Unique across lines, so that a line made again
        /// never matches an entry of the one it replaces.
        var stamp: UInt64 = 0

        /// The rank of the transfer that this line would start next, nil when none waits.
        func firstRank(_ order: CurlEngine.ExecutionOrder) -> CurlReadyHeap.Rank? {
            for priority in CurlRequest.Priority.allCases.reversed() where lanes[priority.rawValue].count > 0 {
                let lane = lanes[priority.rawValue]
                guard let slot = order == .fifo ? lane.first : lane.last else { continue }
                return CurlReadyHeap.Rank(
                    priority: priority.rawValue, position: order == .fifo ? -slot.sequence : slot.sequence
                )
            }
            return nil
        }

        /// Takes the transfer ``firstRank(_:)`` ranks.
        mutating func popFirst(_ order: CurlEngine.ExecutionOrder) -> Slot? {
            for priority in CurlRequest.Priority.allCases.reversed() where lanes[priority.rawValue].count > 0 {
                let slot = order == .fifo ? lanes[priority.rawValue].popFirst() : lanes[priority.rawValue].popLast()
                if let slot {
                    waiting -= 1
                    return slot
                }
            }
            return nil
        }
    }
}
