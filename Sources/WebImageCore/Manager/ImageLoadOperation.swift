import Dispatch
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
/// come after it: a partial image that arrives while an earlier one is still being handed over waits, in place of any
/// that waited before it, and follows it unless the final result comes first. Once
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
    /// The load's lifecycle and callback queue; nil for an operation whose result was delivered during the call
    /// that made it, which has nothing left to deliver or cancel.
    let run: Run?

    /// What a load that has not yet delivered its result keeps, shared by the copies of its operation.
    final class Run: Sendable {
        let lifecycle: Locked<Lifecycle>
        let callbackQueue: CallbackQueue
        /// Whether the caller gave a progress handler.
        let wantsProgress: Bool

        init(callbackQueue: CallbackQueue, progress: ImageLoadProgressHandler?, completion: @escaping ImageLoadResultHandler) {
            lifecycle = Locked(Lifecycle(completion: completion, progressHandler: progress))
            self.callbackQueue = callbackQueue
            wantsProgress = progress != nil
        }

        /// Does what ending the load asks: the hooks at once, then the delivery on the callback queue.
        func perform(_ action: Lifecycle.EndAction, duringCall: Bool = false, onFreeGlobalThread: Bool = false) {
            guard case .end(let deliver, let hooks) = action else { return }
            for hook in hooks { hook() }
            guard let deliver else { return }
            if callbackQueue.runsInline(duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread) {
                deliver()
            } else {
                callbackQueue.execute(duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread, deliver)
            }
        }
    }

    init(url: URL?, callbackQueue: CallbackQueue, progress: ImageLoadProgressHandler?, completion: @escaping ImageLoadResultHandler) {
        self.url = url
        run = Run(callbackQueue: callbackQueue, progress: progress, completion: completion)
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
        let url = url
        let action = run.lifecycle.withLock { lifecycle in
            lifecycle.cancel(with: WebImageError(.cancelled, "the load of \(url?.absoluteString ?? "nil") was cancelled"))
        }
        run.perform(action)
    }

    /// Whether ``cancel()`` came before the final result.
    public var isCancelled: Bool { run?.lifecycle.withLock { $0.isCancelled } ?? false }

    /// Whether the final result has been delivered or claimed by a cancellation.
    public var isFinished: Bool { run?.lifecycle.withLock { $0.isEnded } ?? true }

    /// The cache query while it runs: nil before it starts, once it has answered (the load has then gone on to
    /// the loader, or completed), and for a load that queries no cache.
    public var cacheToken: CacheQueryToken? {
        run?.lifecycle.withLock { $0.cacheToken }
    }

    /// The loader's request, once it has started.
    public var loaderToken: (any ImageLoadToken)? {
        run?.lifecycle.withLock { $0.loaderToken }
    }

    // MARK: Driven by the manager

    /// Runs `work` once, when the operation is cancelled (at once if it already is; never for an operation
    /// delivered during its call, which cannot be cancelled).
    func onCancel(_ work: @escaping @Sendable () -> Void) {
        guard let run else { return }
        if run.lifecycle.withLock({ $0.onCancel(work) }) { work() }
    }

    func setCacheToken(_ token: CacheQueryToken) {
        guard let run else { return }
        if run.lifecycle.withLock({ $0.setCacheToken(token) }) { token.cancel() }
    }

    /// The cache query answered: forgets its token (see ``cacheToken``), before the next step starts.
    func endCacheQuery() {
        run?.lifecycle.withLock { $0.endCacheQuery() }
    }

    func setLoaderToken(_ token: any ImageLoadToken) {
        guard let run else { return }
        if run.lifecycle.withLock({ $0.setLoaderToken(token) }) { token.cancel() }
    }

    /// Records the loader's progress and hands it to the progress handler on the callback queue. Reports that
    /// pile up are merged into the latest; none is delivered after the final result.
    func report(_ progress: ImageLoadProgress) {
        guard let run, run.lifecycle.withLock({ $0.report(progress) }) else { return }
        run.callbackQueue.execute(duringCall: false) {
            run.lifecycle.withLock { $0.takeProgress() }?()
        }
    }

    /// Delivers the cached image of a `refreshCached` load before the loader is asked; the final result, or a
    /// cancellation, waits until this one has been handed over.
    func deliverRefreshing(_ result: ImageLoadResult, duringCall: Bool) {
        guard let run, let completion = run.lifecycle.withLock({ $0.beginEarly() }) else { return }
        Self.deliverEarly(result, to: completion, in: run, duringCall: duringCall)
    }

    /// Delivers a partial image of a progressive load, made by `make` only when its turn comes: at once (on the
    /// calling thread, outside the lock) when no other result that is not final is on its way; otherwise after that
    /// one (on a global queue), in place of any partial that waited before it, unless the load ends first. The
    /// final result waits behind it. A partial that comes before a pause in the body is thus always shown.
    func deliverPartial(_ make: @escaping @Sendable () -> ImageLoadResult) {
        guard let run, let completion = run.lifecycle.withLock({ $0.beginPartial(make) }) else { return }
        Self.deliverEarly(make(), to: completion, in: run, duringCall: false)
    }

    /// Hands `result` to `completion` on the callback queue unless the load ended first, then hands over what
    /// waited behind it: the end, or the latest partial.
    private static func deliverEarly(
        _ result: ImageLoadResult, to completion: @escaping ImageLoadResultHandler, in run: Run, duringCall: Bool
    ) {
        run.callbackQueue.execute(duringCall: duringCall) {
            if run.lifecycle.withLock({ $0.showsEarly }) { completion(.success(result)) }
            switch run.lifecycle.withLock({ $0.endEarly() }) {
            case .nothing:
                break
            case .end(let deliver):
                deliver()
            case .partial(let make, let completion):
                // Made off the callback queue, which may be the one a user interface draws on.
                DispatchQueue.global().async { deliverEarly(make(), to: completion, in: run, duringCall: false) }
            }
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
        run.perform(run.lifecycle.withLock { $0.finish(result) }, duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread)
    }
}
