#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The cache's calls for async code: the same operations as the callback calls, suspending the task instead of
/// blocking a thread. A command in flight is not cancelled with the task; it ends within its timeouts.
extension RedisImageCache {
    /// The bytes stored under `key`, or nil; see ``data(forKey:callbackQueue:completion:)``.
    public func data(forKey key: String) async throws(WebImageError) -> Data? {
        try await withCheckedContinuation { continuation in
            data(forKey: key, callbackQueue: .inline) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Stores `data` under `key`; see ``setData(_:forKey:callbackQueue:completion:)``.
    @discardableResult
    public func setData(_ data: Data, forKey key: String) async throws(WebImageError) -> StoreOutcome {
        try await withCheckedContinuation { continuation in
            setData(data, forKey: key, callbackQueue: .inline) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Removes what is stored under `key`; returns whether there was an entry.
    @discardableResult
    public func removeData(forKey key: String) async throws(WebImageError) -> Bool {
        try await withCheckedContinuation { continuation in
            removeData(forKey: key, callbackQueue: .inline) { continuation.resume(returning: $0) }
        }.get()
    }
}
