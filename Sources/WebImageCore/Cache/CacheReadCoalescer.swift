/// The disk reads in flight, so that concurrent queries for the same key and decode options wait for one read
/// and one decode instead of each doing their own.
///
/// The first query for a key starts the work; later ones join it. The work asks ``isWanted(_:)`` before each
/// costly step: when every waiting query has been cancelled, the entry is dropped and the work stops. At the
/// end ``takeWaiters(_:)`` removes the entry and hands back every query still waiting.
final class CacheReadCoalescer: Sendable {
    struct Key: Hashable, Sendable {
        var key: String
        var memoryKey: String
        var decodeOptions: ImageDecodeOptions
        var writesBackToMemory: Bool
        var rechecksMemory: Bool
    }

    private let waiting = Locked<[Key: [CompletionLatch<ImageCacheQueryResult>]]>([:])

    /// Adds a waiting query; returns whether it is the first for `key` (and must start the work).
    func join(_ key: Key, _ latch: CompletionLatch<ImageCacheQueryResult>) -> Bool {
        waiting.withLock { table in
            if table[key] != nil {
                table[key]!.append(latch)
                return false
            }
            table[key] = [latch]
            return true
        }
    }

    /// Whether any query still waits for `key`; when none does, the entry is removed and the work must stop.
    func isWanted(_ key: Key) -> Bool {
        waiting.withLock { table in
            guard let latches = table[key] else { return false }
            if latches.allSatisfy(\.isDone) {
                table[key] = nil
                return false
            }
            return true
        }
    }

    /// Removes `key` and returns the queries that were waiting for it.
    func takeWaiters(_ key: Key) -> [CompletionLatch<ImageCacheQueryResult>] {
        waiting.withLock { $0.removeValue(forKey: key) ?? [] }
    }

    /// The number of reads in flight.
    var count: Int { waiting.withLock { $0.count } }
}
