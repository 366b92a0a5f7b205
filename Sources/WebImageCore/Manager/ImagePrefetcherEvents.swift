#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A prefetcher's counts over its busy spell (see ``ImagePrefetcherEvent``) and the streams its events go to.
///
/// Thread-safe. The counts change under the lock, and each change queues its event there, so the events are
/// numbered in the order the changes happened; one thread at a time takes the queue and sends it outside the
/// lock, in order, so two loads ending at once never send their counts backwards.
final class ImagePrefetcherEvents: Sendable {
    private struct State {
        var spell = ImagePrefetchProgress(finishedCount: 0, skippedCount: 0, totalCount: 0)
        /// The URLs not yet done of each running prefetch, by token. A token is here only while the prefetcher
        /// holds it (until its last URL is done or it is cancelled), so its identifier is not reused meanwhile.
        var remaining: [ObjectIdentifier: Int] = [:]
        /// Events waiting to be sent, in order.
        var outbox: [ImagePrefetcherEvent] = []
        /// Whether a thread is sending the outbox.
        var sending = false
        var nextStream = 0
        var streams: [Int: AsyncStream<ImagePrefetcherEvent>.Continuation] = [:]

        /// Queues `event` unless no stream is open; returns whether the caller must send the outbox.
        mutating func queue(_ event: ImagePrefetcherEvent) -> Bool {
            guard !streams.isEmpty else { return false }
            outbox.append(event)
            guard !sending else { return false }
            sending = true
            return true
        }

        /// Ends the spell when no prefetch is left running; returns whether the caller must send the outbox.
        mutating func endSpellIfIdle() -> Bool {
            guard remaining.isEmpty else { return false }
            let last = spell
            spell = ImagePrefetchProgress(finishedCount: 0, skippedCount: 0, totalCount: 0)
            return queue(.didFinish(last))
        }
    }

    private let state = Locked(State())

    /// A prefetch of `count` URLs (at least one) has started.
    func started(_ token: ImagePrefetchToken, count: Int) {
        state.withLock { state in
            state.remaining[ObjectIdentifier(token)] = count
            state.spell.totalCount += count
        }
    }

    /// One URL of `token` is done; ignored once the token has been cancelled.
    func prefetched(_ url: URL, of token: ImagePrefetchToken, skipped: Bool) {
        let send = state.withLock { state -> Bool in
            let id = ObjectIdentifier(token)
            guard let left = state.remaining[id] else { return false }
            state.remaining[id] = left > 1 ? left - 1 : nil
            state.spell.finishedCount += 1
            if skipped { state.spell.skippedCount += 1 }
            let sendsURL = state.queue(.didPrefetch(url: url, skipped: skipped, progress: state.spell))
            let sendsEnd = state.endSpellIfIdle()
            return sendsURL || sendsEnd
        }
        if send { sendOutbox() }
    }

    /// `token` was cancelled: the URLs it had not finished leave the total.
    func cancelled(_ token: ImagePrefetchToken) {
        let send = state.withLock { state -> Bool in
            guard let left = state.remaining.removeValue(forKey: ObjectIdentifier(token)) else { return false }
            state.spell.totalCount -= left
            return state.endSpellIfIdle()
        }
        if send { sendOutbox() }
    }

    /// Sends the queued events, in order, until none is left.
    private func sendOutbox() {
        while true {
            let (events, streams) = state.withLock { state in
                defer { state.outbox.removeAll() }
                if state.outbox.isEmpty { state.sending = false }
                return (state.outbox, Array(state.streams.values))
            }
            guard !events.isEmpty else { return }
            for event in events {
                for stream in streams { stream.yield(event) }
            }
        }
    }

    /// A new stream of the events sent from now on, keeping at most `limit` unread ones (the newest).
    func makeStream(bufferingNewest limit: Int) -> AsyncStream<ImagePrefetcherEvent> {
        let (stream, continuation) = AsyncStream<ImagePrefetcherEvent>.makeStream(bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = state.withLock { state in
            defer { state.nextStream += 1 }
            state.streams[state.nextStream] = continuation
            return state.nextStream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in state.streams[id] = nil }
        }
        return stream
    }

    /// Ends every stream.
    func finishAll() {
        let streams = state.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
