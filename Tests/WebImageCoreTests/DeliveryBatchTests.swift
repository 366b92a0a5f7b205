import Dispatch
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

@Suite struct DeliveryBatchTests {
    @Test func gatheredBlocksRunOnlyWhenSentOnceEachAndInOrder() async {
        let batch = DeliveryBatch()
        let ran = Locked<[Int]>([])
        for index in 0..<5 {
            batch.add { ran.withLock { $0.append(index) } }
        }
        #expect(batch.count == 5)
        try? await Task.sleep(for: .milliseconds(50))
        #expect(ran.withLock { $0 }.isEmpty, "nothing runs before the batch is sent")

        batch.send()
        #expect(batch.isEmpty, "sending empties the batch")
        #expect(await waitUntil(timeout: .seconds(10)) { ran.withLock { $0.count } == 5 })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(ran.withLock { $0 } == [0, 1, 2, 3, 4], "each block once, in the order gathered")

        batch.send()
        try? await Task.sleep(for: .milliseconds(20))
        #expect(ran.withLock { $0.count } == 5, "an empty batch sends nothing")
    }

    @Test func aGatheringRunsOnOneThreadUntilABlockIsSlow() async {
        let batch = DeliveryBatch()
        let threads = Locked<[Int: String]>([:])
        func record(_ index: Int) -> @Sendable () -> Void {
            { threads.withLock { $0[index] = "\(pthread_self())" } }
        }
        batch.add(record(0))
        batch.add(record(1))
        // A handler that blocks for longer than a drain runs before handing off.
        batch.add {
            Thread.sleep(forTimeInterval: 0.03)
            threads.withLock { $0[2] = "\(pthread_self())" }
        }
        for index in 3..<8 { batch.add(record(index)) }
        batch.send()
        #expect(await waitUntil(timeout: .seconds(10)) { threads.withLock { $0.count } == 8 }, "every block runs")
        let seen = threads.withLock { $0 }
        #expect(seen[0] == seen[1] && seen[1] == seen[2], "the blocks before the slow one and the slow one share a thread")
    }

    @Test func blocksForOtherQueuesAreNotGathered() async {
        let batch = DeliveryBatch()
        let ran = Locked(false)
        let queue = DispatchQueue(label: "callers")
        CallbackQueue(queue, policy: .dispatch).execute(duringCall: false, batch: batch) { ran.withLock { $0 = true } }
        #expect(batch.isEmpty, "a caller's own queue gets its block directly")
        #expect(await waitUntil(timeout: .seconds(10)) { ran.withLock { $0 } })

        let gathered = Locked(false)
        CallbackQueue.default.execute(duringCall: false, batch: batch) { gathered.withLock { $0 = true } }
        #expect(batch.count == 1, "a block for the global queue is gathered")
        batch.send()
        #expect(await waitUntil(timeout: .seconds(10)) { gathered.withLock { $0 } })
    }
}
