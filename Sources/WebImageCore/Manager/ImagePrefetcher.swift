#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads images ahead of need, a few at a time, as SDWebImage's `SDWebImagePrefetcher`.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let token = prefetcher.prefetch(urls: urls) { finished, skipped in
///     print("\(finished - skipped) of \(urls.count) cached")
/// }
/// // later, if they are no longer wanted:
/// token.cancel()
/// ```
///
/// - At most ``maxConcurrentPrefetchCount`` loads run at once, across every prefetch, in the order asked.
/// - Loads are low priority unless the options say otherwise.
/// - A new prefetch never cancels earlier ones; each token is cancelled on its own.
/// - With ``Destination/diskOnly`` the bytes go to the disk cache without being decoded (for servers warming a
///   cache); a URL already on disk is not loaded again.
///
/// Threading: thread-safe. Each token's progress handler and completion run on the context's callback queue
/// (``CallbackQueue/default`` when it names none), one at a time and in order; the completion runs exactly once,
/// after the last progress report, unless the token is cancelled first.
///
/// Counts over every prefetch at once, as SDWebImage's prefetcher delegate has them, come from
/// ``events(bufferingNewest:)``.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images go.
    public enum Destination: Sendable, Hashable {
        /// Through the whole pipeline: decoded, transformed, and stored as the options and context say.
        case cache
        /// The bytes alone, stored on disk under the URL's original key, undecoded.
        case diskOnly
    }

    /// The manager the images are loaded through.
    public let manager: ImageManager
    private let state = Locked(State())
    /// The counts over every running prefetch, and the streams of ``events(bufferingNewest:)``.
    let progressEvents = ImagePrefetcherEvents()

    private struct State {
        var maxConcurrent = 3
        var options: ImageOptions = .lowPriority
        var context = ImageContext()
        var queue: [Job] = []
        var head = 0
        var running = 0
        var pumping = false
        var tokens: [ObjectIdentifier: ImagePrefetchToken] = [:]
    }

    private struct Job {
        let token: ImagePrefetchToken
        let index: Int
        let options: ImageOptions
        let context: ImageContext
        let destination: Destination
    }

    /// A prefetcher loading through `manager`, which it shares with whoever else uses it.
    public init(manager: ImageManager) {
        self.manager = manager
    }

    deinit {
        progressEvents.finishAll()
    }

    /// A prefetcher with a manager of its own over `cache` and `loader`, so that cancelling the loads of another
    /// manager (``ImageManager/cancelAll()``) leaves its prefetches alone.
    public convenience init(cache: any ImageCaching, loader: any ImageLoading) {
        self.init(manager: ImageManager(cache: cache, loader: loader))
    }

    /// The most loads running at once; 3 by default. Lowering it lets running loads finish.
    public var maxConcurrentPrefetchCount: Int {
        get { state.withLock { $0.maxConcurrent } }
        set {
            state.withLock { $0.maxConcurrent = max(1, newValue) }
            pump()
        }
    }

    /// The options of prefetches that pass none; `lowPriority` by default.
    public var options: ImageOptions {
        get { state.withLock { $0.options } }
        set { state.withLock { $0.options = newValue } }
    }

    /// The context of prefetches that pass none.
    public var context: ImageContext {
        get { state.withLock { $0.context } }
        set { state.withLock { $0.context = newValue } }
    }

    /// Loads `urls` into the cache, with no handler.
    ///
    /// - Parameters:
    ///   - options: The loads' options; the prefetcher's ``options`` when nil.
    ///   - context: The loads' context; the prefetcher's ``context`` when nil.
    ///   - destination: The whole pipeline, or the bytes alone on disk.
    /// - Returns: The token that cancels this prefetch.
    @discardableResult
    public func prefetch(
        urls: [URL],
        options: ImageOptions? = nil,
        context: ImageContext? = nil,
        destination: Destination = .cache
    ) -> ImagePrefetchToken {
        start(urls: urls, options: options, context: context, destination: destination, progress: nil, completion: nil)
    }

    /// Loads `urls` into the cache, and says when they are all done.
    ///
    /// ```swift
    /// ImagePrefetcher.shared.prefetch(urls: urls) { finished, skipped in
    ///     print("\(finished) prefetched, \(skipped) skipped")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: The loads' options; the prefetcher's ``options`` when nil.
    ///   - context: The loads' context; the prefetcher's ``context`` when nil. Its callback queue is where
    ///     `progress` and `completion` run.
    ///   - destination: The whole pipeline, or the bytes alone on disk.
    ///   - progress: `(finished, total)` after each URL, loaded or skipped.
    ///   - completion: `(finished, skipped)` once, after the last URL; at once for an empty list. Skipped URLs
    ///     are those that failed or were cancelled elsewhere, and, with `waitStoreCache` (or
    ///     ``Destination/diskOnly``), those that could not be stored. A trailing closure is this completion.
    /// - Returns: The token that cancels this prefetch; cancelling it calls neither handler again.
    @discardableResult
    public func prefetch(
        urls: [URL],
        options: ImageOptions? = nil,
        context: ImageContext? = nil,
        destination: Destination = .cache,
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil,
        completion: @escaping @Sendable (_ finished: Int, _ skipped: Int) -> Void
    ) -> ImagePrefetchToken {
        start(urls: urls, options: options, context: context, destination: destination, progress: progress, completion: completion)
    }

    private func start(
        urls: [URL],
        options: ImageOptions?,
        context: ImageContext?,
        destination: Destination,
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)?,
        completion: (@Sendable (_ finished: Int, _ skipped: Int) -> Void)?
    ) -> ImagePrefetchToken {
        let defaults = state.withLock { ($0.options, $0.context) }
        let options = options ?? defaults.0
        let context = context ?? defaults.1
        let token = ImagePrefetchToken(
            urls: urls, callbackQueue: context.callbackQueue ?? .default, progress: progress, completion: completion
        ) { [progressEvents] token in progressEvents.cancelled(token) }
        guard !urls.isEmpty else {
            token.completeEmpty()
            return token
        }
        progressEvents.started(token, count: urls.count)
        var inner = context
        inner.callbackQueue = .inline
        let jobs = urls.indices.map { Job(token: token, index: $0, options: options, context: inner, destination: destination) }
        state.withLock { state in
            state.queue.append(contentsOf: jobs)
            state.tokens[ObjectIdentifier(token)] = token
        }
        pump()
        return token
    }

    /// Cancels every prefetch.
    public func cancelAll() {
        let tokens = state.withLock { Array($0.tokens.values) }
        for token in tokens { token.cancel() }
    }

    /// Prefetches not yet finished nor cancelled.
    public var runningTokenCount: Int {
        state.withLock { state in state.tokens.values.filter { !$0.isCancelled }.count }
    }

    // MARK: Scheduling

    /// Starts queued loads while slots are free. One thread pumps at a time; a load that ends during a pump
    /// (a memory hit completes inline) leaves the next start to the pump in progress instead of recursing.
    private func pump() {
        let starts = state.withLock { state in
            guard !state.pumping else { return false }
            state.pumping = true
            return true
        }
        guard starts else { return }
        while let job = nextJob() {
            start(job)
        }
    }

    /// The next job of a token still wanted, taking a slot; nil (and the pump ends) when none can start.
    private func nextJob() -> Job? {
        state.withLock { state in
            while state.running < state.maxConcurrent, state.head < state.queue.count {
                let job = state.queue[state.head]
                state.head += 1
                // Let go of the jobs taken (and their tokens) once they are most of the queue.
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head > 64, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                if job.token.isCancelled {
                    state.tokens[ObjectIdentifier(job.token)] = nil
                    continue
                }
                state.running += 1
                return job
            }
            state.pumping = false
            return nil
        }
    }

    private func start(_ job: Job) {
        let url = job.token.urls[job.index]
        let cancel: @Sendable () -> Void
        switch job.destination {
        case .cache:
            let operation = manager.loadImage(url: url, options: job.options, context: job.context) { [self] result in
                if case .success(let loaded) = result, !loaded.isFinal { return }
                // A prefetch warms the cache: an image that could not be stored warmed nothing.
                let loaded = try? result.get()
                finished(job, skipped: loaded == nil || loaded?.storeError != nil)
            }
            cancel = { operation.cancel() }
        case .diskOnly:
            cancel = manager.storeData(url: url, options: job.options, context: job.context) { [self] result in
                finished(job, skipped: (try? result.get()) == nil)
            }
        }
        if !job.token.started(job.index, cancel: cancel) { cancel() }
    }

    private func finished(_ job: Job, skipped: Bool) {
        if job.token.finished(job.index, skipped: skipped) {
            progressEvents.prefetched(job.token.urls[job.index], of: job.token, skipped: skipped)
        }
        state.withLock { state in
            state.running -= 1
            if job.token.finishedCount == job.token.urls.count || job.token.isCancelled {
                state.tokens[ObjectIdentifier(job.token)] = nil
            }
        }
        pump()
    }
}
