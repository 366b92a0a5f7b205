#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The asynchronous operations: the same work as the synchronous ones, on the same IO queue, in the order
// submitted, but the caller suspends instead of blocking a thread. Task cancellation does not stop an operation
// once it is submitted: each is a few system calls.
extension DiskCache {
    /// The data stored under `key`, or nil; see the synchronous ``data(forKey:)``.
    public func data(forKey key: String) async -> Data? {
        await suspending { $0.data(forKey: key) }
    }

    /// Whether the cache has data for `key`; see the synchronous ``containsData(forKey:)``.
    public func containsData(forKey key: String) async -> Bool {
        await suspending { $0.containsData(forKey: key) }
    }

    /// Stores `data` under `key`; see the synchronous ``setData(_:forKey:)``.
    ///
    /// - Throws: `diskIO` naming the key and the path when the file cannot be written.
    public func setData(_ data: Data, forKey key: String) async throws(WebImageError) {
        let result: Result<Void, WebImageError> = await suspending { store in
            do throws(WebImageError) {
                try store.setData(data, forKey: key)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Removes `key`'s entry; see the synchronous ``removeData(forKey:)``.
    public func removeData(forKey key: String) async {
        await suspending { $0.removeData(forKey: key) }
    }

    /// Removes every entry; see the synchronous ``removeAll()``.
    ///
    /// - Throws: `diskIO` naming the directory when an entry cannot be removed.
    public func removeAll() async throws(WebImageError) {
        let result: Result<Void, WebImageError> = await suspending { store in
            do throws(WebImageError) {
                try store.removeAll()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Applies the age and size limits now; see the synchronous ``applyLimits()``.
    ///
    /// - Throws: `diskIO` naming the directory when it cannot be read or an entry cannot be removed.
    public func applyLimits() async throws(WebImageError) {
        let result: Result<Void, WebImageError> = await suspending { store in
            do throws(WebImageError) {
                try store.removeExpiredData()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Applies the limits, ignoring failures; see the synchronous ``removeExpiredData()``.
    public func removeExpiredData() async {
        await suspending { store in _ = try? store.removeExpiredData() }
    }

    /// Waits until every operation submitted to the IO queue before this call has finished: the writes and
    /// removals an ``ImageCache`` hands over without waiting, in particular. See the synchronous ``flush()``.
    ///
    /// ```swift
    /// imageCache.store(image, data: data, key: key)   // returns before the file is written
    /// await imageCache.diskCache.flush()              // the file is on disk now
    /// ```
    ///
    /// Suspends without blocking a thread; task cancellation does not end the wait early.
    public func flush() async {
        await suspending { _ in }
    }

    /// The bytes the entries occupy on disk; see ``totalSize``.
    public func totalSize() async -> Int {
        await suspending { $0.totalSize }
    }

    /// The number of entries; see ``totalCount``.
    public func totalCount() async -> Int {
        await suspending { $0.totalCount }
    }

    /// Count, size, access range and limits; see the synchronous ``statistics()``.
    public func statistics() async -> Statistics {
        await suspending { $0.statistics() }
    }
}
