#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One load started by ``ImageManager/loadImage(url:options:context:progress:completion:)``: its cache query and
/// its loader request, cancelled together (SDWebImage's `SDWebImageCombinedOperation`).
///
/// The completion runs exactly once with a final result: the image, an error, or `cancelled` when ``cancel()``
/// comes first, whatever the race. Results that are not final may come before it: with `refreshCached` and a
/// cached image, a ``ImageLoadResult/Outcome/refreshing`` result first; with `progressiveLoad`,
/// ``ImageLoadResult/Outcome/partial`` results. They never overlap one another or the final result, and never
/// come after it: a partial image that arrives while an earlier one is still being handed over is dropped. Once
/// the final result is claimed, the operation lets go of the completion and the progress handler, so that keeping
/// the operation does not keep what they capture.
///
/// A handle: copies refer to the same load, and two operations are equal when they refer to the same load. An
/// operation whose result was delivered during the call that made it (a memory hit) refers to no running load:
/// it is finished, cannot be cancelled, and costs no allocation.
///
/// Thread-safe.
public struct ImageLoadOperation: Sendable, Hashable {
    /// The URL asked for; nil when the load was started without one.
    public let url: URL?
    /// The load's latch, callback queue and handlers; nil for an operation whose result was delivered during the
    /// call that made it, which has nothing left to deliver or cancel.
    let run: Run?

    /// What a load that has not yet delivered its result keeps, shared by the copies of its operation.
    final class Run: Sendable {
        let latch: CompletionLatch<ImageLoadResult>
        let callbackQueue: CallbackQueue
        let state: Locked<State>
        /// Whether the caller gave a progress handler.
        let wantsProgress: Bool

        init(latch: CompletionLatch<ImageLoadResult>, callbackQueue: CallbackQueue, state: State, wantsProgress: Bool) {
            self.latch = latch
            self.callbackQueue = callbackQueue
            self.state = Locked(state)
            self.wantsProgress = wantsProgress
        }
    }

    struct State {
        var cacheToken: CacheQueryToken?
        var loaderToken: (any ImageLoadToken)?
        /// The caller's handlers, until the final result or the cancellation is claimed.
        var completion: ImageLoadResultHandler?
        var progressHandler: ImageLoadProgressHandler?
        /// The last progress the loader reported, until a callback takes it.
        var progress: ImageLoadProgress?
        /// While a result that is not final is on its way: what must wait for it (the final result, or the
        /// cancellation), run by the block that delivers it, after it.
        var waitingForRefreshing: [@Sendable () -> Void]?
    }

    init(url: URL?, callbackQueue: CallbackQueue, progress: ImageLoadProgressHandler?, completion: @escaping ImageLoadResultHandler) {
        self.url = url
        run = Run(
            latch: CompletionLatch(
                callbackQueue: callbackQueue,
                makeCancellationError: { WebImageError(.cancelled, "the load of \(url?.absoluteString ?? "nil") was cancelled") },
                handler: completion
            ),
            callbackQueue: callbackQueue,
            state: State(completion: completion, progressHandler: progress),
            wantsProgress: progress != nil
        )
    }

    /// An operation whose result was delivered during the call that made it (a memory hit): finished, not
    /// cancelled, with nothing left to cancel.
    init(deliveredDuringCall url: URL) {
        self.url = url
        run = nil
    }

    /// The operation of a load that `run` still keeps: for the places that hold a load weakly.
    init(url: URL?, run: Run) {
        self.url = url
        self.run = run
    }

    /// Whether the caller gave a progress handler.
    var wantsProgress: Bool { run?.wantsProgress ?? false }

    /// The object that holds the load's state while anything keeps the load, for tests that check that no load
    /// outlives them; nil for an operation delivered during its call, which holds none.
    package var stateObject: AnyObject? { run }

    /// Whether `lhs` and `rhs` refer to the same load; two operations delivered during their calls are equal when
    /// their URLs are.
    public static func == (lhs: ImageLoadOperation, rhs: ImageLoadOperation) -> Bool {
        switch (lhs.run, rhs.run) {
        case (.some(let left), .some(let right)): left === right
        case (.none, .none): lhs.url == rhs.url
        default: false
        }
    }

    /// Hashes the load `self` refers to, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        if let run {
            hasher.combine(ObjectIdentifier(run))
        } else {
            hasher.combine(url)
        }
    }

    /// Cancels the load: the completion runs at once with `cancelled` unless it has already run, the cache query
    /// and the loader request are cancelled, and nothing is delivered afterwards. Thread-safe, returns at once;
    /// calling it again does nothing.
    public func cancel() {
        guard let run else { return }
        run.latch.cancel { call in
            let deferred: Bool = run.state.withLock { state in
                state.completion = nil
                state.progressHandler = nil
                guard state.waitingForRefreshing != nil else { return false }
                state.waitingForRefreshing?.append(call)
                return true
            }
            if !deferred { run.callbackQueue.execute(duringCall: false, call) }
        }
    }

    /// Whether ``cancel()`` came before the final result.
    public var isCancelled: Bool { run?.latch.isCancelled ?? false }

    /// Whether the final result has been delivered or claimed by a cancellation.
    public var isFinished: Bool { run?.latch.isDone ?? true }

    /// The cache query, once it has started.
    public var cacheToken: CacheQueryToken? {
        run?.state.withLock { $0.cacheToken }
    }

    /// The loader's request, once it has started.
    public var loaderToken: (any ImageLoadToken)? {
        run?.state.withLock { $0.loaderToken }
    }

    // MARK: Driven by the manager

    /// Runs `work` once, when the operation is cancelled (at once if it already is; never for an operation
    /// delivered during its call, which cannot be cancelled).
    func onCancel(_ work: @escaping @Sendable () -> Void) {
        run?.latch.onCancel(work)
    }

    func setCacheToken(_ token: CacheQueryToken) {
        guard let run else { return }
        run.state.withLock { $0.cacheToken = token }
        run.latch.onCancel { token.cancel() }
    }

    func setLoaderToken(_ token: any ImageLoadToken) {
        guard let run else { return }
        run.state.withLock { $0.loaderToken = token }
        run.latch.onCancel { token.cancel() }
    }

    /// Records the loader's progress and hands it to the progress handler on the callback queue. Reports that
    /// pile up are merged into the latest; none is delivered after the final result.
    func report(_ progress: ImageLoadProgress) {
        guard let run, !run.latch.isDone, run.state.withLock({ state in
            guard state.progressHandler != nil else { return false }
            state.progress = progress
            return true
        }) else { return }
        run.callbackQueue.execute(duringCall: false) {
            guard !run.latch.isDone else { return }
            Self.takeProgress(run)?()
        }
    }

    /// A call of the progress handler with the progress not yet delivered, or nil.
    private static func takeProgress(_ run: Run) -> (@Sendable () -> Void)? {
        let (handler, progress) = run.state.withLock { state in
            defer { state.progress = nil }
            return (state.progressHandler, state.progress)
        }
        guard let handler, let progress else { return nil }
        return { handler(progress) }
    }

    /// Delivers the cached image of a `refreshCached` load before the loader is asked; the final result, or a
    /// cancellation, waits until this one has been handed over.
    func deliverRefreshing(_ result: ImageLoadResult, duringCall: Bool) {
        guard let run else { return }
        let completion = run.state.withLock { state in
            state.waitingForRefreshing = []
            return state.completion
        }
        Self.deliverEarly(result, to: completion, in: run, duringCall: duringCall)
    }

    /// Delivers a partial image of a progressive load, made by `make` (on the calling thread, outside the lock)
    /// only when it will be delivered: not when the operation is finished or another result that is not final is
    /// still on its way (the partial is then dropped). The final result waits behind it.
    func deliverPartial(_ make: () -> ImageLoadResult) {
        guard let run, !run.latch.isDone else { return }
        let completion: ImageLoadResultHandler? = run.state.withLock { state in
            guard state.waitingForRefreshing == nil, let completion = state.completion else { return nil }
            state.waitingForRefreshing = []
            return completion
        }
        guard let completion else { return }
        Self.deliverEarly(make(), to: completion, in: run, duringCall: false)
    }

    /// Hands `result` to `completion` on the callback queue unless the final result came first, then runs what
    /// waited behind it.
    private static func deliverEarly(
        _ result: ImageLoadResult, to completion: ImageLoadResultHandler?, in run: Run, duringCall: Bool
    ) {
        run.callbackQueue.execute(duringCall: duringCall) {
            if let completion, !run.latch.isDone { completion(.success(result)) }
            let waiting = run.state.withLock { state in
                defer { state.waitingForRefreshing = nil }
                return state.waitingForRefreshing ?? []
            }
            for work in waiting { work() }
        }
    }

    /// Delivers the final result unless the operation is already finished or cancelled; the last progress report
    /// not yet delivered comes first, in the same callback.
    ///
    /// - Parameters:
    ///   - duringCall: Whether the caller is still in `loadImage`, on its own thread.
    ///   - onFreeGlobalThread: Whether this thread is a global-queue thread holding nothing of the library's.
    func finish(_ result: Result<ImageLoadResult, WebImageError>, duringCall: Bool = false, onFreeGlobalThread: Bool = false) {
        guard let run else { return }
        let deliver: @Sendable () -> Void = {
            let lastProgress = Self.takeProgress(run)
            run.state.withLock { state in
                state.completion = nil
                state.progressHandler = nil
            }
            run.latch.finish(result, duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread, before: lastProgress)
        }
        let deferred: Bool = run.state.withLock { state in
            guard state.waitingForRefreshing != nil else { return false }
            state.waitingForRefreshing?.append(deliver)
            return true
        }
        if !deferred { deliver() }
    }
}
