import Dispatch
import Foundation
import Testing
@testable import WebImageCore

@Suite struct CallbackQueueTests {

    @Test func defaultRunsInlineDuringTheCallAndElsewhereAfter() {
        let thread = Locked<String?>(nil)
        let marker = "caller"
        Thread.current.name = marker
        CallbackQueue.default.execute(duringCall: true) { thread.withLock { $0 = Thread.current.name } }
        #expect(thread.withLock { $0 } == marker, "a result ready during the call runs on the caller's thread, at once")

        let done = DispatchSemaphore(value: 0)
        let ranHere = Locked(false)
        CallbackQueue.default.execute(duringCall: false) {
            ranHere.withLock { $0 = Thread.current.name == marker }
            done.signal()
        }
        done.wait()
        #expect(!ranHere.withLock { $0 }, "a later result goes to a global queue")
    }

    @Test func freeGlobalThreadRunsDefaultCompletionsInlineOnly() {
        let marker = "free-global"
        Thread.current.name = marker
        let ran = Locked<String?>(nil)
        #expect(CallbackQueue.default.runsInline(duringCall: false, onFreeGlobalThread: true))
        CallbackQueue.default.execute(duringCall: false, onFreeGlobalThread: true) {
            ran.withLock { $0 = Thread.current.name }
        }
        #expect(ran.withLock { $0 } == marker, "the default queue's later result runs on a free global thread at once")

        #expect(!CallbackQueue.global.runsInline(duringCall: false, onFreeGlobalThread: true), ".dispatch always dispatches")
        #expect(!CallbackQueue(DispatchQueue(label: "other")).runsInline(duringCall: false, onFreeGlobalThread: true),
                "a queue of the caller's is not any global thread")
        #expect(!CallbackQueue.default.runsInline(duringCall: false))
        #expect(CallbackQueue.inline.runsInline(duringCall: false))
    }

    @Test func customQueueSafeExecuteRecognisesItself() {
        let queue = DispatchQueue(label: "callback-test")
        let callback = CallbackQueue(queue)
        let order = Locked<[String]>([])
        queue.sync {
            callback.execute(duringCall: false) { order.withLock { $0.append("inline") } }
            order.withLock { $0.append("after") }
        }
        #expect(order.withLock { $0 } == ["inline", "after"])

        let done = DispatchSemaphore(value: 0)
        let onQueue = Locked(false)
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        callback.execute(duringCall: true) {
            onQueue.withLock { $0 = DispatchQueue.getSpecific(key: key) == 7 }
            done.signal()
        }
        done.wait()
        #expect(onQueue.withLock { $0 }, "off the queue, the block is dispatched onto it")
    }

    @Test func dispatchAndInvokePolicies() {
        let ran = Locked(0)
        CallbackQueue.inline.execute(duringCall: false) { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1, "invoke runs at once")
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "dispatch-test")
        let callback = CallbackQueue(queue, policy: .dispatch)
        let order = Locked<[String]>([])
        queue.sync {
            callback.execute(duringCall: true) {
                order.withLock { $0.append("block") }
                done.signal()
            }
            order.withLock { $0.append("after") }
        }
        done.wait()
        #expect(order.withLock { $0 } == ["after", "block"], "dispatch never runs inline, even on its own queue")
    }
}

@Suite struct CompletionLatchTests {
    @Test func deliversExactlyOnceWhateverTheRace() async {
        for _ in 0..<200 {
            let calls = Locked<[Result<Int, WebImageError>]>([])
            let latch = CompletionLatch<Int>(callbackQueue: .inline) { result in calls.withLock { $0.append(result) } }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { latch.finish(.success(1)) }
                group.addTask { latch.cancel() }
                group.addTask { latch.cancel() }
                group.addTask { latch.finish(.success(2)) }
            }
            let delivered = calls.withLock { $0 }
            #expect(delivered.count == 1)
        }
    }

    @Test func cancelDeliversCancelledAndRunsHooks() {
        let result = Locked<Result<Int, WebImageError>?>(nil)
        let hooks = Locked(0)
        let latch = CompletionLatch<Int>(callbackQueue: .inline) { r in result.withLock { $0 = r } }
        latch.onCancel { hooks.withLock { $0 += 1 } }
        latch.cancel()
        latch.cancel()
        #expect(latch.isCancelled && latch.isDone)
        #expect(hooks.withLock { $0 } == 1)
        if case .failure(let error) = result.withLock({ $0 }) {
            #expect(error.code == .cancelled)
        } else {
            Issue.record("expected the cancellation error")
        }
        #expect(!latch.finish(.success(3)), "a result after cancel is dropped")
        latch.onCancel { hooks.withLock { $0 += 10 } }
        #expect(hooks.withLock { $0 } == 11, "a hook added after cancel runs at once")
    }

    @Test func finishedLatchIgnoresCancel() {
        let count = Locked(0)
        let latch = CompletionLatch<Int>(callbackQueue: .inline) { _ in count.withLock { $0 += 1 } }
        latch.onCancel { count.withLock { $0 += 100 } }
        #expect(latch.finish(.success(1)))
        latch.cancel()
        #expect(!latch.isCancelled)
        #expect(count.withLock { $0 } == 1)
        latch.onCancel { count.withLock { $0 += 1000 } }
        #expect(count.withLock { $0 } == 1, "a hook added after the result never runs")
    }

    @Test func hooksAddedWhileCancellingRunExactlyOnce() async {
        for _ in 0..<200 {
            final class Runs: Sendable {
                let counts = Locked([Int](repeating: 0, count: 8))
            }
            let runs = Runs()
            let latch = CompletionLatch<Int>(callbackQueue: .inline) { _ in }
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { latch.onCancel { runs.counts.withLock { $0[index] += 1 } } }
                }
                group.addTask { latch.cancel() }
            }
            #expect(runs.counts.withLock { $0 } == [Int](repeating: 1, count: 8))
        }
    }
}
