import Testing
@testable import WebImageCurl
import WebImageTestSupport

@Suite struct CurlWaitingQueueTests {
    private typealias Queue = CurlWaitingQueue<String>
    private let hostA = CurlConnectionKey.origin(host: "a", port: 80)
    private let hostB = CurlConnectionKey.origin(host: "b", port: 80)
    private let hostC = CurlConnectionKey.origin(host: "c", port: 80)

    private func id(_ value: Int) -> CurlTransferID { CurlTransferID(rawValue: UInt64(value)) }

    private func drain(_ queue: inout Queue) -> [String] {
        var names: [String] = []
        while let entry = queue.dequeue() { names.append(entry.element) }
        return names
    }

    @Test func aFullHostHoldsBackOnlyItsOwnTransfers() {
        var queue = Queue(order: .fifo, limits: .init(perKey: 2, total: 0))
        for index in 1...4 { queue.enqueue("a\(index)", id: id(index), priority: .normal, key: hostA) }
        queue.enqueue("b1", id: id(10), priority: .normal, key: hostB)
        queue.enqueue("file", id: id(20), priority: .low, key: .uncounted)
        #expect(drain(&queue) == ["a1", "a2", "b1", "file"])
        #expect(queue.count == 2 && !queue.hasAdmissible())
        queue.release(hostB)
        #expect(queue.dequeue() == nil)
        queue.release(hostA)
        #expect(drain(&queue) == ["a3"])
        queue.release(hostA)
        queue.release(hostA)
        #expect(drain(&queue) == ["a4"])
        #expect(queue.isEmpty)
    }

    @Test func theTotalLimitHoldsBackEveryCountedKey() {
        var queue = Queue(order: .fifo, limits: .init(perKey: 6, total: 3))
        queue.enqueue("a1", id: id(1), priority: .normal, key: hostA)
        queue.enqueue("a2", id: id(2), priority: .normal, key: hostA)
        queue.enqueue("b1", id: id(3), priority: .normal, key: hostB)
        queue.enqueue("c1", id: id(4), priority: .high, key: hostC)
        queue.enqueue("file", id: id(5), priority: .low, key: .uncounted)
        #expect(drain(&queue) == ["c1", "a1", "a2", "file"])
        queue.release(hostC)
        #expect(drain(&queue) == ["b1"])
    }

    @Test func prioritiesAndOrderHoldAcrossHosts() {
        var fifo = Queue(order: .fifo, limits: .init(perKey: 1, total: 0))
        var lifo = Queue(order: .lifo, limits: .init(perKey: 1, total: 0))
        let arrivals: [(String, CurlRequest.Priority, CurlConnectionKey)] = [
            ("a-normal", .normal, hostA), ("b-low", .low, hostB), ("c-normal", .normal, hostC),
            ("b-high", .high, hostB), ("a-high", .high, hostA),
        ]
        for (index, (name, priority, key)) in arrivals.enumerated() {
            fifo.enqueue(name, id: id(index), priority: priority, key: key)
            lifo.enqueue(name, id: id(index), priority: priority, key: key)
        }
        // One transfer per host at once: each host's best goes, in the order of their ranks.
        #expect(drain(&fifo) == ["b-high", "a-high", "c-normal"])
        #expect(drain(&lifo) == ["a-high", "b-high", "c-normal"])
        fifo.release(hostA)
        fifo.release(hostB)
        #expect(drain(&fifo) == ["a-normal", "b-low"])
    }

    @Test func removingAndReprioritisingAWaitingTransfer() {
        var queue = Queue(order: .fifo, limits: .init(perKey: 1, total: 0))
        queue.enqueue("a1", id: id(1), priority: .normal, key: hostA)
        queue.enqueue("a2", id: id(2), priority: .normal, key: hostA)
        queue.enqueue("b1", id: id(3), priority: .low, key: hostB)
        queue.enqueue("b2", id: id(4), priority: .low, key: hostB)
        #expect(queue.remove(id(1)) == "a1")
        #expect(queue.remove(id(1)) == nil)
        let moved = queue.setPriority(id(4), .high)
        let movedUnknown = queue.setPriority(id(99), .high)
        #expect(moved && !movedUnknown)
        #expect(drain(&queue) == ["b2", "a2"])
        #expect(queue.count == 1)
        #expect(queue.removeAll() == ["b1"])
        #expect(queue.isEmpty)
        // The running ones are still counted after removeAll.
        queue.enqueue("a3", id: id(5), priority: .normal, key: hostA)
        #expect(queue.dequeue() == nil)
        queue.release(hostA)
        #expect(queue.dequeue()?.element == "a3")
    }

    /// Random operations against a model that scans every waiting transfer for the best one it may start.
    @Test(arguments: [CurlEngine.ExecutionOrder.fifo, .lifo])
    func agreesWithAScanOfEveryWaitingTransfer(order: CurlEngine.ExecutionOrder) {
        struct Waiting { var id: Int; var key: CurlConnectionKey; var priority: CurlRequest.Priority; var sequence: Int }
        let limits = Queue.Limits(perKey: 2, total: 5)
        let keys: [CurlConnectionKey] = [.uncounted] + (0..<5).map { .origin(host: "h\($0)", port: 80) }
        var queue = Queue(order: order, limits: limits)
        var waiting: [Waiting] = []
        var running: [CurlConnectionKey] = []
        var random = SplitMix64(seed: order == .fifo ? 1 : 2)
        var nextID = 0
        for _ in 0..<4000 {
            switch random.next() % 10 {
            case 0...3:
                let key = keys[Int(random.next() % UInt64(keys.count))]
                let priority = CurlRequest.Priority(rawValue: Int(random.next() % 3)) ?? .normal
                queue.enqueue("\(nextID)", id: id(nextID), priority: priority, key: key)
                waiting.append(Waiting(id: nextID, key: key, priority: priority, sequence: nextID))
                nextID += 1
            case 4...6:
                let counted = running.filter { $0 != .uncounted }
                let admissible = waiting.filter { entry in
                    entry.key == .uncounted
                        || (running.filter { $0 == entry.key }.count < limits.perKey && counted.count < limits.total)
                }
                let expected = admissible.max { lhs, rhs in
                    if lhs.priority != rhs.priority { return lhs.priority < rhs.priority }
                    return order == .fifo ? lhs.sequence > rhs.sequence : lhs.sequence < rhs.sequence
                }
                #expect(queue.hasAdmissible() == (expected != nil))
                let entry = queue.dequeue()
                #expect(entry?.element == expected.map { "\($0.id)" })
                if let expected {
                    waiting.removeAll { $0.id == expected.id }
                    running.append(expected.key)
                }
            case 7:
                guard !running.isEmpty else { continue }
                let key = running.remove(at: Int(random.next() % UInt64(running.count)))
                queue.release(key)
            case 8:
                guard !waiting.isEmpty else { continue }
                let victim = waiting.remove(at: Int(random.next() % UInt64(waiting.count)))
                #expect(queue.remove(id(victim.id)) == "\(victim.id)")
            default:
                guard !waiting.isEmpty else { continue }
                let index = Int(random.next() % UInt64(waiting.count))
                let priority = CurlRequest.Priority(rawValue: Int(random.next() % 3)) ?? .normal
                queue.setPriority(id(waiting[index].id), priority)
                if waiting[index].priority != priority {
                    waiting[index].priority = priority
                    waiting[index].sequence = nextID
                    // The queue gave the moved transfer a new place in the order: the model numbers it the same way.
                    nextID += 1
                }
            }
            #expect(queue.count == waiting.count)
        }
    }
}
