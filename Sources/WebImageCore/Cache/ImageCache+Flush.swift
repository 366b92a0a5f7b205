extension ImageCache {
    /// Calls `completion` once every disk write and removal asked for before this call has finished: the stores
    /// (including those still encoding an image stored without data), removals, clears and maintenance already
    /// submitted. What is asked for afterwards is not waited for.
    ///
    /// ```swift
    /// cache.store(image, data: nil, key: key)     // returns before the file is written
    /// cache.flush { print("on disk") }
    /// ```
    ///
    /// For a process about to exit: a store returns before its file is written, and a write still queued when the
    /// process ends is lost. Failed writes are reported to their own stores' completions, not here.
    ///
    /// - Parameter completion: Runs once, on `callbackQueue`; never during the call, as the IO queue always
    ///   finishes first.
    public func flush(callbackQueue: CallbackQueue = .default, completion: @escaping @Sendable () -> Void) {
        let diskCache = diskCache
        // The encodes first, whose writes reach the IO queue when they end; then a barrier behind those writes.
        pendingEncodes.whenDone {
            diskCache.perform { _ in callbackQueue.execute(duringCall: false, completion) }
        }
    }

    /// Waits until every disk write and removal asked for before this call has finished, as
    /// ``flush(callbackQueue:completion:)`` does.
    ///
    /// ```swift
    /// try await cache.store(image, data: nil, key: key)   // or many stores without waiting
    /// await cache.flush()                                  // every file is on disk now
    /// ```
    ///
    /// Suspends without blocking a thread. Task cancellation does not end the wait early: the writes it waits for
    /// are already under way.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flush(callbackQueue: .inline) { continuation.resume() }
        }
    }
}
