import Dispatch
import Foundation
import Synchronization
import Testing
@testable import WebImageCore

@Suite struct CallbackQueueTests {

    @Test func defaultRunsInlineDuringTheCallAndElsewhereAfter() {
        let thread = Mutex<String?>(nil)
        let marker = "caller"
        Thread.current.name = marker
        CallbackQueue.default.execute(duringCall: true) { thread.withLock { $0 = Thread.current.name } }
        #expect(thread.withLock { $0 } == marker, "a result ready during the call runs on the caller's thread, at once")

        let done = DispatchSemaphore(value: 0)
        let ranHere = Mutex(false)
        CallbackQueue.default.execute(duringCall: false) {
            ranHere.withLock { $0 = Thread.current.name == marker }
            done.signal()
        }
        done.wait()
        #expect(!ranHere.withLock { $0 }, "a later result goes to a global queue")
    }

    @Test func customQueueSafeExecuteRecognisesItself() {
        let queue = DispatchQueue(label: "callback-test")
        let callback = CallbackQueue(queue)
        let order = Mutex<[String]>([])
        queue.sync {
            callback.execute(duringCall: false) { order.withLock { $0.append("inline") } }
            order.withLock { $0.append("after") }
        }
        #expect(order.withLock { $0 } == ["inline", "after"])

        let done = DispatchSemaphore(value: 0)
        let onQueue = Mutex(false)
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
        let ran = Mutex(0)
        CallbackQueue.inline.execute(duringCall: false) { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1, "invoke runs at once")
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "dispatch-test")
        let callback = CallbackQueue(queue, policy: .dispatch)
        let order = Mutex<[String]>([])
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
            let calls = Mutex<[Result<Int, WebImageError>]>([])
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
        let result = Mutex<Result<Int, WebImageError>?>(nil)
        let hooks = Mutex(0)
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
        let count = Mutex(0)
        let latch = CompletionLatch<Int>(callbackQueue: .inline) { _ in count.withLock { $0 += 1 } }
        latch.onCancel { count.withLock { $0 += 100 } }
        #expect(latch.finish(.success(1)))
        latch.cancel()
        #expect(!latch.isCancelled)
        #expect(count.withLock { $0 } == 1)
    }
}

@Suite struct BoundedExecutorTests {
    @Test func neverRunsMoreThanItsWidthAndRunsEverything() async {
        let executor = BoundedExecutor(width: 3)
        let state = Mutex((running: 0, peak: 0, done: 0))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for _ in 0..<60 {
                executor.submit {
                    state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                    usleep(1000)
                    let finished = state.withLock { s -> Bool in
                        s.running -= 1
                        s.done += 1
                        return s.done == 60
                    }
                    if finished { continuation.resume() }
                }
            }
        }
        let final = state.withLock { $0 }
        #expect(final.done == 60)
        #expect(final.peak <= 3)
        #expect(final.peak >= 2, "work does run in parallel")
        #expect(executor.waitingCount == 0)
    }

    @Test func runsInSubmissionOrderWhenOneWide() async {
        let executor = BoundedExecutor(width: 1)
        let order = Mutex<[Int]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for i in 0..<100 {
                executor.submit {
                    let count = order.withLock { $0.append(i); return $0.count }
                    if count == 100 { continuation.resume() }
                }
            }
        }
        #expect(order.withLock { $0 } == Array(0..<100))
    }
}
