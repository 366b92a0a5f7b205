#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The asynchronous operations: each wraps the callback operation of the same name, which does the work, and returns
// what its completion receives. The caller suspends instead of passing a handler; no thread is blocked. Only a
// query can be cancelled; the other operations finish what they were asked once started, as their callback forms
// do (each is a memory update and a few system calls on the IO queue).
extension ImageCache {
    /// Looks `key` up, as ``query(key:options:context:cacheType:completion:)`` does, and returns what its
    /// completion receives.
    ///
    /// ```swift
    /// let found = try await cache.query(key: url.absoluteString)
    /// if let image = found.image { use(image, found.cacheType) }
    /// ```
    ///
    /// Runs on the caller's executor until it has to wait: a memory hit returns without suspending or leaving the
    /// caller's actor; a disk look-up reads on the IO queue and decodes on ``executor``, and the call resumes on
    /// the thread that finished. The context's callback queue is not used.
    ///
    /// Cancellation: a task already cancelled throws `cancelled` without looking. Cancelling the task while the
    /// query runs cancels its ``CacheQueryToken``: the read and the decode are skipped when they have not started
    /// (concurrent queries sharing them keep them), and the call throws `cancelled` unless the result was
    /// delivered first.
    ///
    /// - Returns: The image found, with its data when read, and the tier; ``ImageCacheQueryResult/miss`` when
    ///   neither tier has it.
    /// - Throws: `cancelled` (2002), naming the key, when the task was cancelled first.
    nonisolated(nonsending) public func query(
        key: String,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        cacheType: ImageCacheType = .all
    ) async throws(WebImageError) -> ImageCacheQueryResult {
        guard !Task.isCancelled else {
            throw WebImageError(.cancelled, "the cache query for \(key) was cancelled")
        }
        var context = context
        context.callbackQueue = .inline
        let pending = PendingCancellation<CacheQueryToken> { $0.cancel() }
        let result: Result<ImageCacheQueryResult, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let token = query(key: key, options: options, context: context, cacheType: cacheType) { result in
                    continuation.resume(returning: result)
                }
                pending.set(token)
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }

    /// Stores `image` and its encoded `data` under `key`, as
    /// ``store(_:data:key:options:context:cacheType:completion:)`` does, and returns once the tiers asked for are
    /// written.
    ///
    /// The memory write happens before the first suspension; the image is encoded on ``executor`` when `data` is
    /// nil, and written on the IO queue. Task cancellation does not stop the store. The context's callback queue
    /// is not used.
    ///
    /// - Throws: `diskIO` or the encoder's error, naming the key, when the disk write or the encode failed;
    ///   nothing stored before is lost.
    public func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        cacheType: ImageCacheType = .all
    ) async throws(WebImageError) {
        var context = context
        context.callbackQueue = .inline
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            store(image, data: data, key: key, options: options, context: context, cacheType: cacheType) { result in
                continuation.resume(returning: result)
            }
        }
        try result.get()
    }

    /// Removes `key` from the tiers `cacheType` names, as ``remove(key:cacheType:callbackQueue:completion:)``
    /// does, and returns once the disk entry is gone. Task cancellation does not stop the removal.
    public func remove(key: String, cacheType: ImageCacheType = .all) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            remove(key: key, cacheType: cacheType, callbackQueue: .inline) { continuation.resume() }
        }
    }

    /// Empties the tiers `cacheType` names, as ``clear(cacheType:callbackQueue:completion:)`` does (what cannot be
    /// removed from disk stays, silently), and returns once done. Task cancellation does not stop it.
    public func clear(cacheType: ImageCacheType = .all) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            clear(cacheType: cacheType, callbackQueue: .inline) { continuation.resume() }
        }
    }

    /// Which tier holds `key`, memory first, as ``contains(key:cacheType:callbackQueue:completion:)`` finds it;
    /// `.none` when neither does. A memory hit returns without waiting for the IO queue. Task cancellation does
    /// not stop the look-up.
    public func contains(key: String, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        await withCheckedContinuation { continuation in
            contains(key: key, cacheType: cacheType, callbackQueue: .inline) { continuation.resume(returning: $0) }
        }
    }

    /// Removes expired disk entries, then trims the disk tier to its size limit, as
    /// ``removeExpiredData(callbackQueue:completion:)`` does (what cannot be removed stays, silently), and returns
    /// once done. Task cancellation does not stop it.
    public func removeExpiredData() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            removeExpiredData(callbackQueue: .inline) { continuation.resume() }
        }
    }
}
