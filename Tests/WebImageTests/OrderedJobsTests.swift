import Foundation
import Testing
import WebImageCore
@testable import webimage

/// ``OrderedJobs``: results handed over in the inputs' order whatever order they finish in, at most N at once.
@Suite struct OrderedJobsTests {
    /// What the jobs saw: the order they finished in, the order results came out, the most running at once.
    final class Record: Sendable {
        struct State {
            var finished: [Int] = []
            var delivered: [Int] = []
            var running = 0
            var mostRunning = 0
        }

        let state = Locked(State())
    }

    @Test func theFirstInputFinishingLastIsStillDeliveredFirst() {
        let record = Record()
        let lastIsDone = DispatchSemaphore(value: 0)
        // Three threads take one input each; the first waits until the last has finished.
        OrderedJobs.run(count: 3, jobs: 3) { index in
            if index == 0 { _ = lastIsDone.wait(timeout: .now() + 120) }
            record.state.withLock { $0.finished.append(index) }
            if index == 2 { lastIsDone.signal() }
            return index
        } deliver: { index in
            record.state.withLock { $0.delivered.append(index) }
        }
        let state = record.state.withLock { $0 }
        #expect(state.finished.last == 0, "the first input finished last: \(state.finished)")
        #expect(state.delivered == [0, 1, 2])
    }

    @Test(arguments: [1, 2, 5])
    func everyInputIsDeliveredOnceInOrderWithAtMostNRunning(jobs: Int) {
        let record = Record()
        OrderedJobs.run(count: 40, jobs: jobs) { index in
            record.state.withLock { state in
                state.running += 1
                state.mostRunning = max(state.mostRunning, state.running)
            }
            defer { record.state.withLock { $0.running -= 1 } }
            return index * 10
        } deliver: { value in
            record.state.withLock { $0.delivered.append(value) }
        }
        let state = record.state.withLock { $0 }
        #expect(state.delivered == (0..<40).map { $0 * 10 })
        #expect(state.mostRunning <= jobs)
        #expect(state.running == 0)
    }

    @Test func noInputsDeliverNothing() {
        let record = Record()
        OrderedJobs.run(count: 0, jobs: 4) { $0 } deliver: { value in
            record.state.withLock { $0.delivered.append(value) }
        }
        #expect(record.state.withLock { $0.delivered }.isEmpty)
    }
}
