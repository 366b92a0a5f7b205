import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

@Suite struct CurlEngineSchedulingTests {
    /// An engine with one slot, held by a transfer to a silent server until `release` cancels it, so that the
    /// transfers started meanwhile all wait and then run one at a time.
    private struct Harness {
        let engine: CurlEngine
        let listener: RawTCPListener
        let blockerID: CurlTransferID
        let blocker = RecordingSink(name: "blocker")
        let order = CompletionOrder()

        init(_ executionOrder: CurlEngine.ExecutionOrder) async throws {
            var configuration = CurlEngine.Configuration()
            configuration.maxConcurrentTransfers = 1
            configuration.executionOrder = executionOrder
            engine = try CurlEngine(configuration: configuration)
            listener = try RawTCPListener(.silent)
            blockerID = engine.start(CurlRequest.patient(url: listener.url), sink: blocker)
            let listener = listener
            _ = await waitUntil(timeout: .seconds(30)) { listener.acceptedCount == 1 }
        }

        @discardableResult
        func start(_ name: String, _ priority: CurlRequest.Priority = .normal) -> (CurlTransferID, RecordingSink) {
            var request = CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString)
            request.allowsFileScheme = true
            request.priority = priority
            let sink = RecordingSink(name: name, order: order)
            return (engine.start(request, sink: sink), sink)
        }

        func release(expecting count: Int) async -> [String] {
            engine.cancel(blockerID)
            let order = order
            _ = await waitUntil(timeout: .seconds(30)) { order.all.count == count }
            engine.invalidate()
            await listener.stop()
            return order.all
        }
    }

    @Test func higherPrioritiesRunFirst() async throws {
        let harness = try await Harness(.fifo)
        harness.start("low", .low)
        harness.start("normal", .normal)
        harness.start("high", .high)
        #expect(await harness.release(expecting: 3) == ["high", "normal", "low"])
    }

    @Test func fifoAmongEqualPriorities() async throws {
        let harness = try await Harness(.fifo)
        for name in ["a", "b", "c"] { harness.start(name) }
        #expect(await harness.release(expecting: 3) == ["a", "b", "c"])
    }

    @Test func lifoAmongEqualPriorities() async throws {
        let harness = try await Harness(.lifo)
        for name in ["a", "b", "c"] { harness.start(name) }
        #expect(await harness.release(expecting: 3) == ["c", "b", "a"])
    }

    @Test func setPriorityMovesAWaitingTransfer() async throws {
        let harness = try await Harness(.fifo)
        harness.start("a")
        harness.start("b")
        let (late, _) = harness.start("late", .low)
        harness.engine.setPriority(late, .high)
        #expect(await harness.release(expecting: 3) == ["late", "a", "b"])
    }

    @Test func waitingQueueOrdersAndRemoves() {
        var queue = CurlWaitingQueue<String>(order: .fifo)
        for index in 0..<100 {
            queue.enqueue("n\(index)", id: CurlTransferID(rawValue: UInt64(index)), priority: .normal)
        }
        #expect(queue.remove(CurlTransferID(rawValue: 0)) == "n0")
        #expect(queue.remove(CurlTransferID(rawValue: 0)) == nil)
        let moved = queue.setPriority(CurlTransferID(rawValue: 50), .high)
        #expect(moved)
        #expect(queue.dequeue()?.element == "n50")
        #expect(queue.dequeue()?.element == "n1")
        #expect(queue.count == 97)
        #expect(queue.removeAll().count == 97)
        #expect(queue.isEmpty)
    }
}
