#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The memory tier of encoded variants (what ``ImageManager/loadImageData(url:options:context:completion:)``
/// returns): an exact least-recently-used cache of bytes, with their format and pixel size, bounded by their total
/// size and by count, so that a server answers its hot variants without touching the disk or the encoder.
///
/// As ``MemoryCache``: every insertion evicts the least recently used entries until both limits hold, changing a
/// limit trims at once, and an entry larger than a tenth of the byte limit is not kept. Its own limit, not the
/// image cache's: encoded bytes are about a tenth of the pixels they stand for.
///
/// Thread-safe: every method takes one lock, once, for the cache's own bookkeeping, and never calls out or blocks
/// while holding it; entries that leave the cache are handed out of the lock and released after it. None suspends
/// or hops to another thread, and none can be cancelled.
///
/// - Complexity: Lookup, insertion, removal and each eviction are O(1). A hit allocates nothing.
public final class EncodedMemoryCache: Sendable {
    /// A snapshot of the counters, contents and limits, all read under one lock. The counters only grow.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that found an entry.
        public var hits = 0
        /// Lookups that found nothing.
        public var misses = 0
        /// Entries removed to keep a limit; removals by hand and replacements are not counted.
        public var evictions = 0
        /// The bytes held.
        public var totalBytes = 0
        /// The number of entries.
        public var count = 0
        /// The byte limit; 0 means no limit.
        public var byteLimit = 0
        /// The count limit; 0 means no limit.
        public var countLimit = 0

        public init() {}
    }

    private struct State {
        var store = LRUStore<EncodedImage>()
        var statistics = Statistics()

        /// Evicts the least recent entries until both limits hold; returns what left, to release after the lock.
        mutating func trim() -> [EncodedImage] {
            var evicted: [EncodedImage] = []
            while (statistics.byteLimit > 0 && store.totalCost > statistics.byteLimit)
                || (statistics.countLimit > 0 && store.count > statistics.countLimit),
                let entry = store.removeLeastRecent() {
                evicted.append(entry)
                statistics.evictions += 1
            }
            return evicted
        }
    }

    /// The byte limit of a cache made without one: a quarter of the image memory cache's default
    /// (``MemoryCache/defaultCostLimit``), so about 4% of the process's memory limit, at most 256 MiB.
    public static let defaultByteLimit = max(ProcessMemory.defaultCacheBudget / 4, 1 << 20)

    private let state: Locked<State>

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - byteLimit: The most bytes the entries may hold; 0 for no limit, negative values count as 0. The
    ///     default is ``defaultByteLimit``.
    ///   - countLimit: The most entries; 0 (the default) for no limit.
    public init(byteLimit: Int = EncodedMemoryCache.defaultByteLimit, countLimit: Int = 0) {
        var state = State()
        state.statistics.byteLimit = max(0, byteLimit)
        state.statistics.countLimit = max(0, countLimit)
        self.state = Locked(state)
    }

    /// The most bytes the entries may hold; 0 for no limit. Setting it evicts at once until the total fits.
    public var byteLimit: Int {
        get { state.withLock { $0.statistics.byteLimit } }
        set {
            _ = state.withLock { state in
                state.statistics.byteLimit = max(0, newValue)
                return state.trim()
            }
        }
    }

    /// The most entries; 0 for no limit. Setting it evicts at once until the count fits.
    public var countLimit: Int {
        get { state.withLock { $0.statistics.countLimit } }
        set {
            _ = state.withLock { state in
                state.statistics.countLimit = max(0, newValue)
                return state.trim()
            }
        }
    }

    /// The entry under `key`, which becomes the most recently used; counts a hit or a miss.
    public func encodedImage(forKey key: String) -> EncodedImage? {
        state.withLock { state in
            guard let entry = state.store.value(forKey: key) else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            return entry
        }
    }

    /// Stores `entry` under `key` as the most recently used entry, replacing what was there, then evicts the least
    /// recently used entries until both limits hold. An entry over a tenth of the byte limit is not kept (and
    /// what was under `key` is removed, as it is out of date).
    public func setEncodedImage(_ entry: EncodedImage, forKey key: String) {
        _ = state.withLock { state in
            let limit = state.statistics.byteLimit
            guard limit == 0 || entry.data.count <= limit / 10 else {
                return (state.store.remove(forKey: key), [])
            }
            let replaced = state.store.insert(entry, cost: entry.data.count, forKey: key)
            return (replaced, state.trim())
        }
    }

    /// Removes the entry under `key`.
    public func removeEncodedImage(forKey key: String) {
        _ = state.withLock { $0.store.remove(forKey: key) }
    }

    /// Removes every entry; the counters stay.
    public func removeAll() {
        _ = state.withLock { $0.store.removeAll() }
    }

    /// The counters, contents and limits now.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.totalBytes = state.store.totalCost
            statistics.count = state.store.count
            return statistics
        }
    }
}

/// An image's encoded bytes with what a server sends with them: the format and the pixel size.
public struct EncodedImage: Sendable, Hashable {
    /// The encoded bytes.
    public var data: Data
    /// Their format.
    public var format: ImageFormat
    /// The pixel size of the image they hold (of the first frame, for an animation).
    public var pixelSize: PixelSize

    public init(data: Data, format: ImageFormat, pixelSize: PixelSize) {
        self.data = data
        self.format = format
        self.pixelSize = pixelSize
    }
}
