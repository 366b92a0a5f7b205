import Dispatch
import Foundation
import Testing
@testable import WebImageCore

@Suite struct BoundedExecutorTests {
    @Test func neverRunsMoreThanItsWidthAndRunsEverything() async {
        let executor = BoundedExecutor(width: 3)
        let state = Locked((running: 0, peak: 0, done: 0))
        // The first two items wait (a bounded time) until both run, so that parallelism is shown however busy
        // the machine is, instead of hoping two 1 ms items overlap.
        let firstTwo = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<60 {
                executor.submit {
                    state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                    if index == 0 {
                        firstTwo.0.signal()
                        _ = firstTwo.1.wait(timeout: .now() + .seconds(10))
                    } else if index == 1 {
                        firstTwo.1.signal()
                        _ = firstTwo.0.wait(timeout: .now() + .seconds(10))
                    }
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
        let order = Locked<[Int]>([])
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

    @Test func followUpRunsOnTheSameThreadWithTheSlotReleased() async {
        let executor = BoundedExecutor(width: 1)
        let seen = Locked<(work: pthread_t?, followUp: pthread_t?, runningInWork: Int, runningInFollowUp: Int)>((nil, nil, -1, -1))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            executor.submitWithFollowUp {
                seen.withLock { $0.work = pthread_self(); $0.runningInWork = executor.runningCount }
                return {
                    seen.withLock { $0.followUp = pthread_self(); $0.runningInFollowUp = executor.runningCount }
                    continuation.resume()
                }
            }
        }
        let result = seen.withLock { $0 }
        #expect(result.runningInWork == 1)
        #expect(result.runningInFollowUp == 0, "the follow-up holds no slot")
        #expect(result.followUp == result.work, "no second dispatch for the follow-up")
    }

    @Test func itemsWaitingBehindFollowUpsStillRunInOrder() async {
        let executor = BoundedExecutor(width: 1)
        let order = Locked<[Int]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<40 {
                let record = { @Sendable in
                    let count = order.withLock { $0.append(index); return $0.count }
                    if count == 40 { continuation.resume() }
                }
                if index % 2 == 0 {
                    executor.submitWithFollowUp { record }
                } else {
                    executor.submit(record)
                }
            }
        }
        #expect(order.withLock { $0 }.sorted() == Array(0..<40))
        #expect(executor.waitingCount == 0)
    }

    @Test func aFollowUpWaitingForAWaitingItemDoesNotDeadlock() async {
        let executor = BoundedExecutor(width: 1)
        let secondSubmitted = DispatchSemaphore(value: 0)
        let secondRan = DispatchSemaphore(value: 0)
        let sawSecond: Bool = await withCheckedContinuation { continuation in
            executor.submitWithFollowUp {
                // The second item is queued behind this one before this one ends.
                secondSubmitted.wait()
                return {
                    // A completion handler that waits for work queued behind the item that produced it.
                    let ran = secondRan.wait(timeout: .now() + .seconds(10)) == .success
                    continuation.resume(returning: ran)
                }
            }
            executor.submit { secondRan.signal() }
            #expect(executor.waitingCount == 1)
            secondSubmitted.signal()
        }
        #expect(sawSecond, "the waiting item ran while the follow-up waited for it")
    }
}
