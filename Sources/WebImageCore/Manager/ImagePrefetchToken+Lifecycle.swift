extension ImagePrefetchToken {
    /// A prefetch's lifecycle as a state machine: running (counting its URLs and holding the way to cancel the
    /// loads under way) or cancelled. Each transition returns what the token must do; the token does it after
    /// releasing its lock, so no load is cancelled and no handler runs with the lock held. Not thread-safe: the
    /// token keeps it behind its lock.
    struct Lifecycle {
        struct Running {
            var finished = 0
            var skipped = 0
            /// Cancels the loads under way, by index into the token's URLs.
            var loads: [Int: @Sendable () -> Void] = [:]
            /// URLs done, by index: a load that ended before its start was recorded is not recorded after.
            var done = Set<Int>()
        }

        enum Phase {
            case running(Running)
            /// Cancelled, with the counts it had then, which stay.
            case cancelled(finished: Int, skipped: Int)
            /// Only during a transition that changes the running state in place (see ``withRunning(_:)``).
            case modifying
        }

        /// What the token does with a load it started.
        enum StartAction: Equatable {
            /// Nothing: the load is recorded (or has ended already).
            case none
            /// The prefetch was cancelled: the token cancels the load at once.
            case cancelLoad
        }

        /// What the token reports to its handlers, in order, on its callback queue.
        struct Report: Equatable {
            /// The progress reports due: each finished count in turn (empty when they were all reported).
            var progress: ClosedRange<Int>?
            /// The completion's arguments, after the last URL.
            var completion: (finished: Int, skipped: Int)?

            static func == (lhs: Report, rhs: Report) -> Bool {
                lhs.progress == rhs.progress && lhs.completion?.finished == rhs.completion?.finished
                    && lhs.completion?.skipped == rhs.completion?.skipped
            }
        }

        let total: Int
        private(set) var phase = Phase.running(Running())
        /// The finished count last reported to the progress handler.
        private(set) var reported = 0

        init(total: Int) {
            self.total = total
        }

        var isCancelled: Bool {
            if case .cancelled = phase { true } else { false }
        }

        var finishedCount: Int {
            switch phase {
            case .running(let running): running.finished
            case .cancelled(let finished, _): finished
            case .modifying: preconditionFailure("the prefetch lifecycle is read during a transition")
            }
        }

        var skippedCount: Int {
            switch phase {
            case .running(let running): running.skipped
            case .cancelled(_, let skipped): skipped
            case .modifying: preconditionFailure("the prefetch lifecycle is read during a transition")
            }
        }

        /// Runs `body` on the running state, changed in place: the phase lets go of it meanwhile, so that adding
        /// to its table and set does not copy them. Nil when not running.
        private mutating func withRunning<Result>(_ body: (inout Running) -> Result) -> Result? {
            guard case .running(var running) = phase else { return nil }
            phase = .modifying
            defer { phase = .running(running) }
            return body(&running)
        }

        /// The load of URL `index` has started; `cancel` stops it.
        mutating func started(_ index: Int, cancel: @escaping @Sendable () -> Void) -> StartAction {
            let recorded: Void? = withRunning { running in
                if !running.done.contains(index) { running.loads[index] = cancel }
            }
            return recorded == nil ? .cancelLoad : .none
        }

        /// The load of URL `index` has ended; returns the finished count to report, or nil when nothing is to be
        /// reported (cancelled, or that URL was counted already).
        mutating func finished(_ index: Int, skipped: Bool) -> Int? {
            let count: Int?? = withRunning { running in
                guard running.done.insert(index).inserted else { return nil }
                running.loads[index] = nil
                running.finished += 1
                if skipped { running.skipped += 1 }
                return running.finished
            }
            return count ?? nil
        }

        /// The reports due for finished count `count`, taken on the callback queue. Two loads ending at once may
        /// queue theirs out of order, so a report covers every count since the last one reported, and one that
        /// finds its count reported already covers nothing: the handler sees 1, 2, ... total in order, then the
        /// completion. Nothing once cancelled.
        mutating func report(upTo count: Int) -> Report? {
            guard case .running(let running) = phase, count > reported else { return nil }
            let from = reported + 1
            reported = count
            return Report(progress: from...count, completion: count == total ? (count, running.skipped) : nil)
        }

        /// Cancels: returns the loads to cancel, none when it was cancelled already.
        mutating func cancel() -> [@Sendable () -> Void] {
            guard case .running(let running) = phase else { return [] }
            phase = .cancelled(finished: running.finished, skipped: running.skipped)
            return Array(running.loads.values)
        }
    }
}
