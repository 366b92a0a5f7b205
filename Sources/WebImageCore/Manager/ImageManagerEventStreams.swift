import Synchronization

/// The subscribers of a manager's events: one `AsyncStream` per call of ``ImageManager/events(bufferingNewest:)``,
/// each given every event sent after it was made.
///
/// Thread-safe. An event is sent outside the lock, to a snapshot of the subscribers; a stream that ends (its
/// consumer cancelled, or nothing reads it any more) leaves the list through its termination handler.
final class ImageManagerEventStreams: Sendable {
    private struct State {
        var next = 0
        var continuations: [Int: AsyncStream<ImageManagerEvent>.Continuation] = [:]
    }

    private let state = Locked(State())
    /// Whether any stream is open, readable without the lock: with none, sending costs one load.
    private let hasSubscribers = Atomic(false)

    /// A new stream of the events sent from now on, keeping at most `limit` unread ones (the newest).
    func makeStream(bufferingNewest limit: Int) -> AsyncStream<ImageManagerEvent> {
        let (stream, continuation) = AsyncStream<ImageManagerEvent>.makeStream(bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = state.withLock { state in
            let id = state.next
            state.next += 1
            state.continuations[id] = continuation
            hasSubscribers.store(true, ordering: .releasing)
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Whether any stream is open.
    var isActive: Bool { hasSubscribers.load(ordering: .acquiring) }

    /// Sends `event` to every open stream.
    func send(_ event: ImageManagerEvent) {
        guard isActive else { return }
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    /// Ends every stream, for a manager that goes away.
    func finishAll() {
        let continuations = state.withLock { state in
            defer { state.continuations.removeAll() }
            hasSubscribers.store(false, ordering: .releasing)
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            state.continuations[id] = nil
            hasSubscribers.store(!state.continuations.isEmpty, ordering: .releasing)
        }
    }
}

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
    /// See ``ImageManagerEvent`` for what a load sends, in which order. The same events go to the manager's logger
    /// at debug level (a failed store at warning), when it writes that level.
    ///
    /// Each call makes a stream of its own, which gets every event sent after the call; any number may be open.
    /// Events are sent from the thread where they happen, without waiting for a reader: a stream keeps at most
    /// `limit` unread events, dropping the oldest, so a slow reader never holds a load up or grows memory without
    /// bound. Cancelling the task that reads a stream ends it; all streams end when the manager is released.
    ///
    /// - Parameter limit: The most unread events a stream keeps (at least 1).
    public func events(bufferingNewest limit: Int = 256) -> AsyncStream<ImageManagerEvent> {
        instruments.streams.makeStream(bufferingNewest: limit)
    }
}
