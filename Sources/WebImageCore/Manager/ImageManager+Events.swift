extension ImageManager {
    /// The manager's events from now on, for logs, metrics and alerts.
    ///
    /// ```swift
    /// Task {
    ///     for await event in manager.events() {
    ///         if case .storeFailed(let failure) = event { logger.warning("not cached: \(failure.error)") }
    ///     }
    /// }
    /// ```
    ///
    /// Each call makes a stream of its own, which gets every event sent after the call; any number may be open.
    /// Events are sent from the thread where they happen, without waiting for a reader: a stream keeps at most
    /// `limit` unread events, dropping the oldest, so a slow reader never holds a load up or grows memory without
    /// bound. Cancelling the task that reads a stream ends it; all streams end when the manager is released.
    ///
    /// - Parameter limit: The most unread events a stream keeps (at least 1).
    public func events(bufferingNewest limit: Int = 256) -> AsyncStream<ImageManagerEvent> {
        eventStreams.makeStream(bufferingNewest: limit)
    }
}
