extension ImageLoadOperation {
    /// A load's lifecycle as a state machine: running (with its handlers, the tokens of its cache query and loader
    /// request, and the progress not yet handed over), then ended by its final result or its cancellation, whichever
    /// comes first. A result that is not final (a refreshing or partial one) may be on its way meanwhile: the end
    /// then waits for it, so that nothing overtakes it and nothing comes after the end.
    ///
    /// Each transition returns what the operation must do; the operation does it after releasing its lock, so no
    /// handler, hook or token runs with the lock held. Not thread-safe: the operation keeps it behind its lock.
    struct Lifecycle {
        /// What a running load keeps.
        struct Running {
            var completion: ImageLoadResultHandler
            var progressHandler: ImageLoadProgressHandler?
            var cacheToken: CacheQueryToken?
            var loaderToken: (any ImageLoadToken)?
            /// Work to run if the load is cancelled: stopping the query and the request, forgetting the load.
            var cancelHooks: [@Sendable () -> Void] = []
            /// The last progress reported and not yet handed over.
            var progress: ImageLoadProgress?
            /// Whether a result that is not final is on its way to the completion.
            var isDeliveringEarly = false
            /// The latest partial result that came while another result that is not final was on its way, made when
            /// its turn comes.
            var waitingPartial: (@Sendable () -> ImageLoadResult)?
        }

        enum Phase {
            case running(Running)
            /// Ended (cancelled when `isCancelled`) while a result that is not final was on its way: `deliver` hands
            /// over the end once that result has been handed over.
            case endingAfterEarly(deliver: @Sendable () -> Void, isCancelled: Bool)
            case finished
            case cancelled
            /// Only during a transition that changes the running state in place (see ``withRunning(_:)``).
            case modifying
        }

        /// What the operation does to end the load.
        enum EndAction {
            /// Nothing: the load had ended already, or its end waits behind a result that is not final.
            case none
            /// Runs `hooks` at once (for a cancellation), then hands `deliver` to the callback queue; no `deliver`
            /// when the end waits behind a result that is not final.
            case end(deliver: (@Sendable () -> Void)?, hooks: [@Sendable () -> Void])
        }

        private(set) var phase: Phase

        init(completion: @escaping ImageLoadResultHandler, progressHandler: ImageLoadProgressHandler?) {
            phase = .running(Running(completion: completion, progressHandler: progressHandler))
        }

        /// Whether the final result has been claimed or the load cancelled.
        var isEnded: Bool {
            if case .running = phase { false } else { true }
        }

        /// Whether the load was cancelled before its final result.
        var isCancelled: Bool {
            switch phase {
            case .cancelled, .endingAfterEarly(_, isCancelled: true): true
            default: false
            }
        }

        var cacheToken: CacheQueryToken? {
            if case .running(let running) = phase { running.cacheToken } else { nil }
        }

        var loaderToken: (any ImageLoadToken)? {
            if case .running(let running) = phase { running.loaderToken } else { nil }
        }

        /// Runs `body` on the running state, changed in place: the phase lets go of it meanwhile, so that appending
        /// to its hooks does not copy them. Nil when not running.
        private mutating func withRunning<Result>(_ body: (inout Running) -> Result) -> Result? {
            guard case .running(var running) = phase else { return nil }
            phase = .modifying
            defer { phase = .running(running) }
            return body(&running)
        }

        /// Adds work to run if the load is cancelled. Returns whether to run it at once: the load was cancelled
        /// already. After the final result it is dropped.
        mutating func onCancel(_ hook: @escaping @Sendable () -> Void) -> Bool {
            let added: Void? = withRunning { $0.cancelHooks.append(hook) }
            return added == nil && isCancelled
        }

        /// Keeps the cache query's token, cancelled with the load, until the query answers. Returns whether to
        /// cancel it at once. A query that has answered already (during the call that made it) is not kept.
        mutating func setCacheToken(_ token: CacheQueryToken) -> Bool {
            let kept: Void? = withRunning { running in
                guard !token.isFinished else { return }
                running.cacheToken = token
                running.cancelHooks.append { token.cancel() }
            }
            return kept == nil && isCancelled
        }

        /// The cache query answered: the load lets go of its token, as SDWebImage sets its combined operation's
        /// cache operation to nil once the query is over. The next query, if any, starts after this.
        mutating func endCacheQuery() {
            _ = withRunning { $0.cacheToken = nil }
        }

        /// Keeps the loader request's token, cancelled with the load. Returns whether to cancel it at once.
        mutating func setLoaderToken(_ token: any ImageLoadToken) -> Bool {
            let kept: Void? = withRunning { running in
                running.loaderToken = token
                running.cancelHooks.append { token.cancel() }
            }
            return kept == nil && isCancelled
        }

        /// Records the latest progress. Returns whether to schedule a hand-over: the load runs and has a progress
        /// handler. Reports that pile up before a hand-over merge into the latest.
        mutating func report(_ progress: ImageLoadProgress) -> Bool {
            withRunning { running in
                guard running.progressHandler != nil else { return false }
                running.progress = progress
                return true
            } ?? false
        }

        /// The hand-over of the progress not yet handed over, or nil.
        mutating func takeProgress() -> (@Sendable () -> Void)? {
            withRunning { running in
                guard let handler = running.progressHandler, let progress = running.progress.take() else { return nil }
                return { handler(progress) }
            } ?? nil
        }

        /// Starts handing over a result that is not final (the cached image of a refreshing load). Returns the
        /// completion to hand it to, or nil when the load has ended.
        mutating func beginEarly() -> ImageLoadResultHandler? {
            withRunning { running in
                running.isDeliveringEarly = true
                return running.completion
            } ?? nil
        }

        /// Starts handing over a partial result, made by `make`. Returns the completion to hand it to, or nil when
        /// the load has ended or another result that is not final is on its way: `make` then waits, in place of any
        /// partial that waited before it, for ``endEarly()`` to hand it over next.
        mutating func beginPartial(_ make: @escaping @Sendable () -> ImageLoadResult) -> ImageLoadResultHandler? {
            withRunning { running in
                guard !running.isDeliveringEarly else {
                    running.waitingPartial = make
                    return nil
                }
                running.isDeliveringEarly = true
                return running.completion
            } ?? nil
        }

        /// Whether a result that is not final, now being handed over, is still to be shown: not once the load has
        /// ended.
        var showsEarly: Bool { !isEnded }

        /// What waited behind a result that is not final, once it has been handed over.
        enum AfterEarly {
            case nothing
            /// The end of the load.
            case end(@Sendable () -> Void)
            /// The latest partial result, to make and hand to `completion`; it is now the one on its way.
            case partial(make: @Sendable () -> ImageLoadResult, completion: ImageLoadResultHandler)
        }

        /// A result that is not final has been handed over. Returns what waited for it: the end, or else the latest
        /// partial result; a partial that waited is dropped when the end came meanwhile.
        mutating func endEarly() -> AfterEarly {
            switch phase {
            case .running:
                return withRunning { running in
                    guard let make = running.waitingPartial.take() else {
                        running.isDeliveringEarly = false
                        return .nothing
                    }
                    return .partial(make: make, completion: running.completion)
                } ?? .nothing
            case .endingAfterEarly(let deliver, let isCancelled):
                phase = isCancelled ? .cancelled : .finished
                return .end(deliver)
            case .finished, .cancelled, .modifying:
                return .nothing
            }
        }

        /// Claims the final result: `result` goes to the completion, after the progress not yet handed over.
        mutating func finish(_ result: Result<ImageLoadResult, WebImageError>) -> EndAction {
            guard case .running(let running) = phase else { return .none }
            let progress = running.progressHandler.flatMap { handler in running.progress.map { report in (handler, report) } }
            let completion = running.completion
            let deliver: @Sendable () -> Void = {
                if let (handler, report) = progress { handler(report) }
                completion(result)
            }
            guard !running.isDeliveringEarly else {
                phase = .endingAfterEarly(deliver: deliver, isCancelled: false)
                return .none
            }
            phase = .finished
            return .end(deliver: deliver, hooks: [])
        }

        /// Cancels: the cancellation hooks run at once, and `error` goes to the completion (after a result that is
        /// not final still on its way). Nothing when the load has ended.
        mutating func cancel(with error: @autoclosure () -> WebImageError) -> EndAction {
            guard case .running(let running) = phase else { return .none }
            let completion = running.completion
            let failure = Result<ImageLoadResult, WebImageError>.failure(error())
            let deliver: @Sendable () -> Void = { completion(failure) }
            guard !running.isDeliveringEarly else {
                phase = .endingAfterEarly(deliver: deliver, isCancelled: true)
                return .end(deliver: nil, hooks: running.cancelHooks)
            }
            phase = .cancelled
            return .end(deliver: deliver, hooks: running.cancelHooks)
        }
    }
}
