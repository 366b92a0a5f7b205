import Dispatch
import WebImageCore

/// A bounded set of ``RedisConnection``s to one server, lent to one borrower at a time.
///
/// ```swift
/// let pool = RedisConnectionPool(options: .init(host: "127.0.0.1", port: 6379), capacity: 4)
/// let value = try pool.withConnection { try $0.get("key") }
/// ```
///
/// At most ``capacity`` connections exist at once; they are opened when first needed and kept for the next
/// borrower. A borrower that finds all of them lent waits, at most ``borrowTimeout``, on its own thread. A
/// connection that fails (refused, timed out, closed by the server) is dropped, and the next borrower opens a new
/// one. A connection that sat idle may have been closed by the server meanwhile (a restart): when a command on
/// one fails because the connection was lost, it runs once more on a new connection.
///
/// Thread-safe. Borrowing blocks the calling thread for the connect and the command: call it from a queue of
/// your own, never from a caller's thread that must not block (``RedisImageCache`` does its Redis work on its
/// own executor).
package final class RedisConnectionPool: Sendable {
    /// Where and how each connection connects.
    package let options: RedisConnection.Options
    /// The most connections open at once.
    package let capacity: Int
    /// The longest a borrower waits for a connection when all are lent.
    package let borrowTimeout: Duration
    /// Counts the connections opened and open.
    package let tracker = RedisConnectionTracker()

    private let idle = Locked<[RedisConnection]>([])
    /// One permit per connection that may exist; a borrower holds one from borrowing to giving back.
    private let permits: DispatchSemaphore

    package init(options: RedisConnection.Options, capacity: Int, borrowTimeout: Duration = .seconds(2)) {
        self.options = options
        self.capacity = max(1, capacity)
        self.borrowTimeout = borrowTimeout
        permits = DispatchSemaphore(value: self.capacity)
    }

    /// Connections open and not lent.
    package var idleCount: Int { idle.withLock { $0.count } }

    /// Runs `body` with a connection of the pool's, which it must not keep. `body` may run twice: again on a new
    /// connection when an idle one turns out to have been closed; give it idempotent commands only.
    ///
    /// - Throws: ``RedisError``: `poolExhausted` when no connection became free within ``borrowTimeout``, a
    ///   connect failure, or what `body` threw.
    package func withConnection<T>(_ body: (RedisConnection) throws(RedisError) -> T) throws(RedisError) -> T {
        guard permits.wait(timeout: .now() + .milliseconds(Int(clamping: RedisConnection.wholeMilliseconds(borrowTimeout)))) == .success else {
            throw RedisError(.poolExhausted, "all \(capacity) connections to \(options.host):\(options.port) stayed busy")
        }
        defer { permits.signal() }
        if let reused = idle.withLock({ $0.popLast() }) {
            do {
                return try run(body, on: reused)
            } catch where error.kind == .connectionLost {
                // Closed while idle: try once on a new connection.
            }
        }
        return try run(body, on: RedisConnection(options: options, tracker: tracker))
    }

    /// Runs `body` on `connection`, then keeps the connection unless it broke.
    private func run<T>(_ body: (RedisConnection) throws(RedisError) -> T, on connection: RedisConnection) throws(RedisError) -> T {
        defer {
            if !connection.isBroken {
                idle.withLock { $0.append(connection) }
            }
        }
        return try body(connection)
    }
}
