#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One URL on the manager's failed list.
public struct FailedURL: Sendable {
    /// The URL that failed.
    public var url: URL
    /// Why it failed.
    public var error: WebImageError
    /// When it failed.
    public var failedAt: Date
    /// When it leaves the list by itself.
    public var expiresAt: Date
}

/// URLs whose last load failed for a reason retrying cannot fix, each kept for a while, so that a bad URL is not
/// requested again and again (SDWebImage's `failedURLs`, which never forgot).
///
/// Thread-safe. Expired entries are dropped when they are looked at, and when the list is read whole.
final class FailedURLList: Sendable {
    private let entries = Locked<[URL: FailedURL]>([:])
    /// The number of entries, expired ones included, readable without the lock: a load checks it first.
    private let count = Atomic(0)
    /// How long an entry stays.
    let lifetime: Duration
    private let now: @Sendable () -> Date

    init(lifetime: Duration, now: @escaping @Sendable () -> Date) {
        self.lifetime = lifetime
        self.now = now
    }

    /// The entry for `url`, if it has not expired.
    func entry(for url: URL) -> FailedURL? {
        let time = now()
        return entries.withLock { entries in
            guard let entry = entries[url] else { return nil }
            guard entry.expiresAt > time else {
                entries[url] = nil
                count.store(entries.count, ordering: .releasing)
                return nil
            }
            return entry
        }
    }

    /// Puts `url` on the list (again), from now.
    func add(_ url: URL, error: WebImageError) {
        let time = now()
        let (seconds, attoseconds) = lifetime.components
        let entry = FailedURL(
            url: url,
            error: error,
            failedAt: time,
            expiresAt: time.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        )
        entries.withLock { entries in
            entries[url] = entry
            count.store(entries.count, ordering: .releasing)
        }
    }

    /// Whether the list holds no entry (expired or not); no lock.
    var isEmpty: Bool {
        count.load(ordering: .acquiring) == 0
    }

    func remove(_ url: URL) {
        guard !isEmpty else { return }
        entries.withLock { entries in
            entries[url] = nil
            count.store(entries.count, ordering: .releasing)
        }
    }

    func removeAll() {
        entries.withLock { entries in
            entries.removeAll()
            count.store(0, ordering: .releasing)
        }
    }

    /// Every entry that has not expired.
    var all: [URL: FailedURL] {
        let time = now()
        return entries.withLock { entries in
            entries = entries.filter { $0.value.expiresAt > time }
            count.store(entries.count, ordering: .releasing)
            return entries
        }
    }
}
