import Synchronization

/// Counts what one engine holds alive, for tests that prove `invalidate` leaves nothing: curl handles (easy, multi,
/// share), transfer contexts and curl threads. Thread-safe; read from any thread.
package final class CurlLiveCounters: Sendable {
    private let handleCount = Atomic<Int>(0)
    private let contextCount = Atomic<Int>(0)
    private let threadCount = Atomic<Int>(0)

    package init() {}

    /// curl handles alive: easy, multi and share handles.
    package var handles: Int { handleCount.load(ordering: .acquiring) }
    /// Transfer contexts alive (each holds an easy handle's buffers and its sink).
    package var contexts: Int { contextCount.load(ordering: .acquiring) }
    /// Curl threads running.
    package var threads: Int { threadCount.load(ordering: .acquiring) }
    /// Whether nothing is alive.
    package var isEmpty: Bool { handles == 0 && contexts == 0 && threads == 0 }

    func handleOpened() { handleCount.add(1, ordering: .releasing) }
    func handleClosed() { handleCount.subtract(1, ordering: .releasing) }
    func contextCreated() { contextCount.add(1, ordering: .releasing) }
    func contextDestroyed() { contextCount.subtract(1, ordering: .releasing) }
    func threadStarted() { threadCount.add(1, ordering: .releasing) }
    func threadEnded() { threadCount.subtract(1, ordering: .releasing) }
}
