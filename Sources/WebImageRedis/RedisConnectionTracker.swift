import WebImageCore

/// Counts the connections opened and still open, so that tests can prove every hiredis context is freed, and
/// freed once.
package final class RedisConnectionTracker: Sendable {
    private let counts = Locked((opened: 0, live: 0))

    package init() {}

    /// How many connections were opened.
    package var openedCount: Int { counts.withLock { $0.opened } }
    /// How many are open now.
    package var liveCount: Int { counts.withLock { $0.live } }

    func opened() {
        counts.withLock {
            $0.opened += 1
            $0.live += 1
        }
    }

    func closed() {
        counts.withLock { $0.live -= 1 }
    }
}
