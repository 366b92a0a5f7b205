#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One load started by ``ImageManager/loadImage(url:options:context:progress:completion:)``: its cache query and
/// its loader request, cancelled together (SDWebImage's `SDWebImageCombinedOperation`).
///
/// The completion runs exactly once with a final result: the image, an error, or `cancelled` when ``cancel()``
/// comes first, whatever the race. Results that are not final may come before it: with `refreshCached` and a
/// cached image, a ``ImageLoadResult/Outcome/refreshing`` result first; with `progressiveLoad`,
/// ``ImageLoadResult/Outcome/partial`` results. They never overlap one another or the final result, and never
/// come after it: a partial image that arrives while an earlier one is still being handed over is dropped. Once the final result is claimed, the operation lets go of the completion and the progress
/// handler, so that keeping the operation does not keep what they capture.
///
/// Thread-safe.
public final class ImageLoadOperation: Sendable {
    /// The URL asked for; nil when the load was started without one.
    public let url: URL?
    /// Whether the caller gave a progress handler.
    let wantsProgress: Bool
    private let latch: CompletionLatch<ImageLoadResult>
    private let callbackQueue: CallbackQueue
    private let state: Mutex<State>

    private struct State {
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
        self.callbackQueue = callbackQueue
        wantsProgress = progress != nil
        state = Mutex(State(completion: completion, progressHandler: progress))
        latch = CompletionLatch(
            callbackQueue: callbackQueue,
            makeCancellationError: { WebImageError(.cancelled, "the load of \(url?.absoluteString ?? "nil") was cancelled") },
            handler: completion
        )
    }

    /// An operation whose result was delivered during the call that made it (a memory hit): nothing is left to
    /// cancel, and it shares one latch that is already done, so that it costs one allocation.
    init(deliveredDuringCall url: URL) {
        self.url = url
        callbackQueue = .inline
        wantsProgress = false
        state = Mutex(State())
        latch = Self.delivered
    }

    /// The latch of every operation made by ``init(deliveredDuringCall:)``: done from the start.
    private static let delivered: CompletionLatch<ImageLoadResult> = {
        let latch = CompletionLatch<ImageLoadResult>(callbackQueue: .inline) { _ in }
        latch.finish(.failure(WebImageError(.cancelled, "delivered during the call")))
        return latch
    }()

    /// Cancels the load: the completion runs at once with `cancelled` unless it has already run, the cache query
    /// and the loader request are cancelled, and nothing is delivered afterwards. Thread-safe, returns at once;
    /// calling it again does nothing.
    public func cancel() {
        latch.cancel { [self] call in
            let deferred: Bool = state.withLock { state in
                state.completion = nil
                state.progressHandler = nil
                guard state.waitingForRefreshing != nil else { return false }
                state.waitingForRefreshing?.append(call)
                return true
            }
            if !deferred { callbackQueue.execute(duringCall: false, call) }
        }
    }

    /// Whether ``cancel()`` came before the final result.
    public var isCancelled: Bool { latch.isCancelled }

    /// Whether the final result has been delivered or claimed by a cancellation.
    public var isFinished: Bool { latch.isDone }

    /// The cache query, once it has started.
    public var cacheToken: CacheQueryToken? {
        state.withLock { $0.cacheToken }
    }

    /// The loader's request, once it has started.
    public var loaderToken: (any ImageLoadToken)? {
        state.withLock { $0.loaderToken }
    }

    // MARK: Driven by the manager

    /// Runs `work` once, when the operation is cancelled (at once if it already is).
    func onCancel(_ work: @escaping @Sendable () -> Void) {
        latch.onCancel(work)
    }

    func setCacheToken(_ token: CacheQueryToken) {
        state.withLock { $0.cacheToken = token }
        latch.onCancel { token.cancel() }
    }

    func setLoaderToken(_ token: any ImageLoadToken) {
        state.withLock { $0.loaderToken = token }
        latch.onCancel { token.cancel() }
    }

    /// Records the loader's progress and hands it to the progress handler on the callback queue. Reports that
    /// pile up are merged into the latest; none is delivered after the final result.
    func report(_ progress: ImageLoadProgress) {
        guard !latch.isDone, state.withLock({ state in
            guard state.progressHandler != nil else { return false }
            state.progress = progress
            return true
        }) else { return }
        callbackQueue.execute(duringCall: false) { [self] in
            guard !latch.isDone else { return }
            takeProgress()?()
        }
    }

    /// A call of the progress handler with the progress not yet delivered, or nil.
    private func takeProgress() -> (@Sendable () -> Void)? {
        let (handler, progress) = state.withLock { state in
            defer { state.progress = nil }
            return (state.progressHandler, state.progress)
        }
        guard let handler, let progress else { return nil }
        return { handler(progress) }
    }

    /// Delivers the cached image of a `refreshCached` load before the loader is asked; the final result, or a
    /// cancellation, waits until this one has been handed over.
    func deliverRefreshing(_ result: ImageLoadResult, duringCall: Bool) {
        let completion = state.withLock { state in
            state.waitingForRefreshing = []
            return state.completion
        }
        deliverEarly(result, to: completion, duringCall: duringCall)
    }

    /// Delivers a partial image of a progressive load, made by `make` (on the calling thread, outside the lock)
    /// only when it will be delivered: not when the operation is finished or another result that is not final is
    /// still on its way (the partial is then dropped). The final result waits behind it.
    func deliverPartial(_ make: () -> ImageLoadResult) {
        guard !latch.isDone else { return }
        let completion: ImageLoadResultHandler? = state.withLock { state in
            guard state.waitingForRefreshing == nil, let completion = state.completion else { return nil }
            state.waitingForRefreshing = []
            return completion
        }
        guard let completion else { return }
        deliverEarly(make(), to: completion, duringCall: false)
    }

    /// Hands `result` to `completion` on the callback queue unless the final result came first, then runs what
    /// waited behind it.
    private func deliverEarly(_ result: ImageLoadResult, to completion: ImageLoadResultHandler?, duringCall: Bool) {
        callbackQueue.execute(duringCall: duringCall) { [self] in
            if let completion, !latch.isDone { completion(.success(result)) }
            let waiting = state.withLock { state in
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
        let deliver: @Sendable () -> Void = { [self] in
            let lastProgress = takeProgress()
            state.withLock { state in
                state.completion = nil
                state.progressHandler = nil
            }
            latch.finish(result, duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread, before: lastProgress)
        }
        let deferred: Bool = state.withLock { state in
            guard state.waitingForRefreshing != nil else { return false }
            state.waitingForRefreshing?.append(deliver)
            return true
        }
        if !deferred { deliver() }
    }
}
