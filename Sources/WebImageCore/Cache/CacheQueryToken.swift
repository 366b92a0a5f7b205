/// A cache query in progress; cancel it to stop the read and the decode.
///
/// The query's completion runs exactly once: with the result, or with `cancelled` (2002) when ``cancel()``
/// comes first, whatever the race between the two. Cancelling after the result has been delivered does nothing.
public final class CacheQueryToken: Sendable {
    /// The key queried.
    public let key: String
    private let latch: CompletionLatch<ImageCacheQueryResult>

    package init(key: String, latch: CompletionLatch<ImageCacheQueryResult>) {
        self.key = key
        self.latch = latch
    }

    /// Stops the query: the read and the decode are skipped if they have not started, and the completion
    /// receives `cancelled` unless it already has its result. Thread-safe; returns at once.
    public func cancel() {
        latch.cancel()
    }

    /// Whether the query was cancelled.
    public var isCancelled: Bool { latch.isCancelled }

    /// Whether the query has delivered its result or been cancelled.
    public var isFinished: Bool { latch.isDone }
}
