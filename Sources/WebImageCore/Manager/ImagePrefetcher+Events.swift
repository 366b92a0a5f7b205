extension ImagePrefetcher {
    /// The prefetcher's progress over every prefetch at once, as SDWebImage's prefetcher delegate receives it.
    ///
    /// ```swift
    /// Task {
    ///     for await event in prefetcher.events() {
    ///         switch event {
    ///         case .didPrefetch(_, _, let progress):
    ///             print("\(progress.finishedCount) of \(progress.totalCount)")
    ///         case .didFinish(let progress):
    ///             print("done, \(progress.skippedCount) skipped")
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The counts run over a busy spell: from a prefetch started while none was running to the moment no
    /// prefetch is left running, and cover every prefetch started in between. Each URL done sends
    /// ``ImagePrefetcherEvent/didPrefetch(url:skipped:progress:)``, the finished count rising by one each time;
    /// the end of the spell sends ``ImagePrefetcherEvent/didFinish(_:)`` once, then the counts start again from
    /// zero. A cancelled prefetch sends nothing more, and its URLs not yet done leave the total; a spell that
    /// ends by a cancellation also sends ``ImagePrefetcherEvent/didFinish(_:)``. (SDWebImage sums only the
    /// prefetches still running, so its counts drop when one finishes before another, and it says nothing when
    /// the last running prefetch is cancelled.) A prefetch of no URLs sends nothing.
    ///
    /// Each call makes a stream of its own, which gets every event sent after the call; any number may be open.
    /// Events are sent, in order, from the thread where a load ends, without waiting for a reader: a stream keeps
    /// at most `limit` unread events, dropping the oldest. Cancelling the task that reads a stream ends it; all
    /// streams end when the prefetcher is released. Counting costs a lock per URL whether or not a stream is open.
    ///
    /// - Parameter limit: The most unread events a stream keeps (at least 1).
    public func events(bufferingNewest limit: Int = 256) -> AsyncStream<ImagePrefetcherEvent> {
        progressEvents.makeStream(bufferingNewest: limit)
    }
}
