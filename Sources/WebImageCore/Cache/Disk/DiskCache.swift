import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The disk tier of the image cache: encoded image data in files named after their keys, with exact size and
/// age limits, least-recently-used eviction and atomic writes.
///
/// ```swift
/// let cache = DiskCache(namespace: "avatars")            // ~/.cache/swift-web-image/avatars
/// try cache.setData(jpegData, forKey: url.absoluteString)
/// let data = cache.data(forKey: url.absoluteString)       // sets the entry's access date
/// ```
///
/// ## Files
/// Each entry is one file, `<root>/<namespace>/<md5 of the key>.<extension>`, named as SDWebImage names them
/// (``fileName(forKey:)``). The directory is created when the first entry is written. Writes go to a hidden
/// temporary file that is renamed over the entry, so a reader in this or another process sees the old file or
/// the new one, never part of one. The writer holds a lock on its temporary file until the rename; a writer
/// killed half-way leaves a temporary file whose lock is free, which the next cache to open the directory, or
/// the next trim, removes.
///
/// ## Limits
/// Sizes are allocated bytes on disk (`st_blocks` × 512, what `du` counts), not content lengths, and the
/// temporary files of writes count as well as the entries. A write that takes the total over
/// ``Configuration/maxSize`` removes the least recent entries until the total is below half the limit;
/// ``applyLimits()`` (or ``removeExpiredData()``) removes entries older than ``Configuration/maxAge``, then trims
/// the same way. Every hit sets the file's access date explicitly, so the order is least-recently-used on any
/// mount and survives restarts.
///
/// The limit holds for the directory, however many processes on the machine write to it: they keep one count
/// of its bytes in a small hidden file (the ledger), each adding what it writes and removes without a lock. A
/// process whose write takes the count over the limit recounts the directory under the ledger's lock and trims
/// the least recent entries, whoever wrote them. A directory that cannot hold the ledger (read-only) limits
/// what each cache sees of it.
///
/// ## Threading
/// Every file operation runs on the cache's own serial IO queue. The synchronous methods run their work there
/// and wait for it (called from the IO queue itself, they run at once instead of deadlocking); the `async`
/// variants suspend without blocking a thread. None of them can be cancelled once submitted: each is a few
/// system calls. The cache keeps an index of its entries in memory, built on the IO queue when the cache is
/// created, so creating a cache over 100,000 files returns at once and sizes and trimming need no directory
/// scan; the first call that needs the index waits until it is built.
public final class DiskCache: Sendable {
    /// The directory holding the entries.
    public let directory: URL
    /// The limits and behaviour, fixed at creation.
    public let configuration: Configuration

    private let queue: DispatchQueue
    private let confined: Confined

    /// The store, reachable only through the IO queue.
    private final class Confined: @unchecked Sendable {
        // Sendable because `store` is touched only by work running on the cache's serial IO queue.
        let store: DiskCacheStore

        init(store: DiskCacheStore) {
            self.store = store
        }
    }

    /// Marks a cache's IO queue, so that synchronous calls made on it run inline.
    private static let queueKey = DispatchSpecificKey<Confined>()

    /// `$XDG_CACHE_HOME/swift-web-image` when `XDG_CACHE_HOME` is set to an absolute path, else
    /// `~/.cache/swift-web-image`.
    public static var defaultRootDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("swift-web-image", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("swift-web-image", isDirectory: true)
    }

    /// Opens the cache in `directory`, creating the directory when the first entry is written.
    ///
    /// Returns at once: the index of the files already there is built on the IO queue, and the first call that
    /// needs it waits for it.
    public convenience init(directory: URL, configuration: Configuration = Configuration()) {
        self.init(directory: directory, configuration: configuration, fileSystem: POSIXFileSystem())
    }

    /// Opens the cache in `<root>/<namespace>`.
    ///
    /// - Parameters:
    ///   - namespace: The subdirectory, one per cache; `default` by default.
    ///   - root: The parent directory; ``defaultRootDirectory`` when nil.
    ///   - configuration: Limits and behaviour.
    public convenience init(namespace: String = "default", root: URL? = nil, configuration: Configuration = Configuration()) {
        let root = root ?? DiskCache.defaultRootDirectory
        self.init(directory: root.appendingPathComponent(namespace, isDirectory: true), configuration: configuration)
    }

    /// Opens the cache over `fileSystem`, with `clock` as now (seconds since 1970): for tests that inject
    /// failures or move time.
    package init(
        directory: URL,
        configuration: Configuration = Configuration(),
        fileSystem: any DiskFileSystem,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.directory = directory
        self.configuration = configuration
        let store = DiskCacheStore(directory: directory.path, configuration: configuration, fileSystem: fileSystem, clock: clock)
        let confined = Confined(store: store)
        self.confined = confined
        queue = DispatchQueue(label: "swift-web-image.disk-cache.\(directory.lastPathComponent)")
        queue.setSpecific(key: DiskCache.queueKey, value: confined)
        queue.async { confined.store.rebuildIndex() }
    }

    /// The path of `key`'s file (which may not exist). Does not touch the disk.
    public func path(forKey key: String) -> String {
        directory.appendingPathComponent(DiskCache.fileName(forKey: key)).path
    }

    // MARK: Running on the IO queue

    /// Runs `work` on the IO queue with the store, without waiting; for callers that chain several operations
    /// in one hop. `work` must not keep the store.
    package func perform(_ work: @escaping @Sendable (DiskCacheStore) -> Void) {
        let confined = confined
        queue.async { work(confined.store) }
    }

    /// Runs `work` on the IO queue and waits for its result; inline when already on it.
    func sync<T>(_ work: (DiskCacheStore) throws(WebImageError) -> T) throws(WebImageError) -> T {
        if DispatchQueue.getSpecific(key: DiskCache.queueKey) === confined {
            return try work(confined.store)
        }
        let store = confined.store
        let result: Result<T, WebImageError> = queue.sync {
            do throws(WebImageError) {
                return .success(try work(store))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `work` on the IO queue and waits for its result; inline when already on it.
    func sync<T>(_ work: (DiskCacheStore) -> T) -> T {
        if DispatchQueue.getSpecific(key: DiskCache.queueKey) === confined {
            return work(confined.store)
        }
        let store = confined.store
        return queue.sync { work(store) }
    }

    /// Runs `work` on the IO queue and suspends until it is done, without blocking a thread.
    func suspending<T: Sendable>(_ work: @escaping @Sendable (DiskCacheStore) -> T) async -> T {
        let confined = confined
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work(confined.store)) }
        }
    }
}
