#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The synchronous operations. Each runs on the IO queue and waits for it (inline when called from the IO queue);
// none can be cancelled once called. The first one waits for the index to be built.
extension DiskCache {
    /// The data stored under `key`, or nil.
    ///
    /// Looks at the entry's file, then at the same name without extension (entries written by old versions of
    /// SDWebImage), then at ``Configuration/additionalLookupPath``. A hit in the cache directory sets the file's
    /// access date to now. A file deleted behind the cache's back is a miss; a file replaced behind its back is
    /// read as it is now. Runs on the IO queue and waits.
    public func data(forKey key: String) -> Data? {
        sync { $0.data(forKey: key) }
    }

    /// Whether ``data(forKey:)`` would find something (including at the additional lookup path), without
    /// reading it or moving its access date. Runs on the IO queue and waits.
    public func containsData(forKey key: String) -> Bool {
        sync { $0.containsData(forKey: key) }
    }

    /// Stores `data` under `key`, replacing any entry, and enforces ``Configuration/maxSize``.
    ///
    /// The write is atomic (a temporary file renamed over the entry; flushed first when
    /// ``Configuration/syncsWrites`` is on) and drops the key's extended data. When the total goes over the size
    /// limit, the least recent entries are removed until it is below half the limit; the new entry stays unless
    /// it alone is too big for half the limit. An entry of half the limit or more is not kept at all, and the
    /// key's previous entry is removed. Runs on the IO queue and waits.
    ///
    /// - Throws: `diskIO`, with a message naming the key and the path, when the directory cannot be created or
    ///   the file cannot be written (full disk, read-only file system...). Entries stored before are intact.
    public func setData(_ data: Data, forKey key: String) throws(WebImageError) {
        try sync { (store: DiskCacheStore) throws(WebImageError) in try store.setData(data, forKey: key) }
    }

    /// Removes `key`'s entry and its extended data; does nothing when there is none. Runs on the IO queue and
    /// waits.
    public func removeData(forKey key: String) {
        sync { $0.removeData(forKey: key) }
    }

    /// Removes every entry, including entries other processes wrote to the directory. Runs on the IO queue and
    /// waits.
    ///
    /// - Throws: `diskIO` naming the directory when it cannot be listed or an entry cannot be removed; the
    ///   entries that could be removed are gone.
    public func removeAll() throws(WebImageError) {
        try sync { (store: DiskCacheStore) throws(WebImageError) in try store.removeAll() }
    }

    /// Applies the limits now: re-reads the directory, removes the entries older than ``Configuration/maxAge``
    /// (by the date ``Configuration/expireType`` names), then, when the directory holds more than
    /// ``Configuration/maxSize``, the least recent entries until it is below half the limit. Temporary files
    /// that killed writers left are removed. Runs on the IO queue and waits.
    ///
    /// ```swift
    /// do {
    ///     try cache.applyLimits()
    /// } catch {
    ///     log("cache maintenance failed: \(error)")   // diskIO: "cannot remove expired entries from ..."
    /// }
    /// ```
    ///
    /// - Throws: `diskIO`, with a message naming the directory and the system's error, when the directory
    ///   cannot be read (a missing directory is an empty cache) or an entry cannot be removed (read-only file
    ///   system, no permission). Every entry that could be removed is gone.
    public func applyLimits() throws(WebImageError) {
        try sync { (store: DiskCacheStore) throws(WebImageError) in try store.removeExpiredData() }
    }

    /// ``applyLimits()`` without its failures, as SDWebImage's `removeExpiredData`: what cannot be removed
    /// stays, silently. Runs on the IO queue and waits.
    public func removeExpiredData() {
        sync { store in _ = try? store.removeExpiredData() }
    }

    /// Waits until every operation submitted to the IO queue before this call has finished: a barrier on the
    /// serial queue, for the writes and removals an ``ImageCache`` submits without waiting. Returns at once when
    /// called from the IO queue itself. Blocks the calling thread: from async code, use `await flush()`.
    public func flush() {
        sync { _ in }
    }

    /// The extended data stored with `key`'s entry (HTTP validators and the like), or nil. Runs on the IO queue
    /// and waits.
    public func extendedData(forKey key: String) -> Data? {
        sync { $0.extendedData(forKey: key) }
    }

    /// Stores extended data with `key`'s entry, or removes it when `data` is nil.
    ///
    /// Kept in the entry file's `user.swift-web-image.extended` extended attribute; when the file system refuses
    /// extended attributes, in a hidden sidecar file next to the entry, written atomically and removed with the
    /// entry. Storing new data under the key drops its extended data. Runs on the IO queue and waits.
    ///
    /// - Throws: `diskIO` naming the key and the path when the key has no entry or nothing can be written.
    public func setExtendedData(_ data: Data?, forKey key: String) throws(WebImageError) {
        try sync { (store: DiskCacheStore) throws(WebImageError) in try store.setExtendedData(data, forKey: key) }
    }

    /// The bytes the entries occupy on disk (allocated blocks; sidecars and temporary files not counted, though
    /// temporary files count toward the size limit), from the index. Waits for the IO queue.
    public var totalSize: Int {
        sync { $0.totalSize }
    }

    /// The number of entries, from the index. Waits for the IO queue.
    public var totalCount: Int {
        sync { $0.totalCount }
    }

    /// Count, size, oldest and newest access, and the limits, from the index. Waits for the IO queue.
    public func statistics() -> Statistics {
        sync { $0.statistics() }
    }
}

// For tools that inspect a cache: the entries by file name.
extension DiskCache {
    /// The file names of the entries, sorted. Waits for the IO queue.
    package func entryNames() -> [String] {
        sync { $0.entryNames }
    }

    /// The content of the entry file called `name`, without moving its access date; nil when it cannot be read.
    /// Waits for the IO queue.
    package func contentsOfEntry(named name: String) -> Data? {
        sync { $0.contentsOfEntry(named: name) }
    }
}
