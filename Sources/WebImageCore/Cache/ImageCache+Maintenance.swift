extension ImageCache {
    /// Removes `key` from the tiers `cacheType` names: from memory during the call, from disk on the IO queue.
    ///
    /// - Parameter completion: Runs once the disk entry is gone (during the call when memory alone was asked
    ///   for), on `callbackQueue`.
    public func remove(
        key: String,
        cacheType: ImageCacheType = .all,
        callbackQueue: CallbackQueue = .default,
        completion: (@Sendable () -> Void)? = nil
    ) {
        if cacheType.includesMemory { memoryCache.removeImage(forKey: key) }
        guard cacheType.includesDisk, !key.isEmpty else {
            if let completion { callbackQueue.execute(duringCall: true, completion) }
            return
        }
        diskCache.perform { store in
            store.removeData(forKey: key)
            if let completion { callbackQueue.execute(duringCall: false, completion) }
        }
    }

    /// ``ImageCaching`` conformance: removes with the default callback queue.
    public func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        remove(key: key, cacheType: cacheType, callbackQueue: .default, completion: completion)
    }

    /// Empties the tiers `cacheType` names: memory during the call, disk on the IO queue. What cannot be
    /// removed from disk stays, silently; ``clearDisk(callbackQueue:completion:)`` says so.
    public func clear(
        cacheType: ImageCacheType = .all,
        callbackQueue: CallbackQueue = .default,
        completion: (@Sendable () -> Void)? = nil
    ) {
        if cacheType.includesMemory { memoryCache.removeAll() }
        guard cacheType.includesDisk else {
            if let completion { callbackQueue.execute(duringCall: true, completion) }
            return
        }
        diskCache.perform { store in
            try? store.removeAll()
            if let completion { callbackQueue.execute(duringCall: false, completion) }
        }
    }

    /// Empties the disk tier, as SDWebImage's `clearDisk`, and says whether it could. Runs on the IO queue.
    ///
    /// ```swift
    /// cache.clearDisk { result in
    ///     if case .failure(let error) = result { log(error) }   // diskIO: "cannot empty the disk cache ..."
    /// }
    /// ```
    ///
    /// - Parameter completion: Runs once, on `callbackQueue`, when the entries are gone; `diskIO`, naming the
    ///   directory and the system's error, when the directory cannot be listed or an entry cannot be removed
    ///   (see ``DiskCache/removeAll()``). The entries that could be removed are gone.
    public func clearDisk(
        callbackQueue: CallbackQueue = .default,
        completion: @escaping @Sendable (Result<Void, WebImageError>) -> Void
    ) {
        diskCache.perform { store in
            let result: Result<Void, WebImageError>
            do throws(WebImageError) {
                try store.removeAll()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            callbackQueue.execute(duringCall: false) { completion(result) }
        }
    }

    /// ``ImageCaching`` conformance: clears with the default callback queue.
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        clear(cacheType: cacheType, callbackQueue: .default, completion: completion)
    }

    /// Finds which tier holds `key`: memory during the call, then disk on the IO queue.
    public func contains(
        key: String,
        cacheType: ImageCacheType = .all,
        callbackQueue: CallbackQueue = .default,
        completion: @escaping @Sendable (ImageCacheType) -> Void
    ) {
        if key.isEmpty || cacheType == .none {
            callbackQueue.execute(duringCall: true) { completion(.none) }
            return
        }
        if cacheType.includesMemory, memoryCache.contains(key: key) {
            callbackQueue.execute(duringCall: true) { completion(.memory) }
            return
        }
        guard cacheType.includesDisk else {
            callbackQueue.execute(duringCall: true) { completion(.none) }
            return
        }
        diskCache.perform { store in
            let found: ImageCacheType = store.containsData(forKey: key) ? .disk : .none
            callbackQueue.execute(duringCall: false) { completion(found) }
        }
    }

    /// ``ImageCaching`` conformance: looks with the default callback queue.
    public func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        contains(key: key, cacheType: cacheType, callbackQueue: .default, completion: completion)
    }

    /// Removes disk entries older than the maximum age, then, when the disk tier is still over its size limit,
    /// the least recently used ones until it is under half of the limit. Runs on the IO queue. What cannot be
    /// removed stays, silently; ``deleteOldFiles(callbackQueue:completion:)`` says so.
    public func removeExpiredData(callbackQueue: CallbackQueue = .default, completion: (@Sendable () -> Void)? = nil) {
        diskCache.perform { store in
            try? store.removeExpiredData()
            if let completion { callbackQueue.execute(duringCall: false, completion) }
        }
    }

    /// Removes expired disk entries, then trims the disk tier to its size limit, as
    /// ``removeExpiredData(callbackQueue:completion:)`` and SDWebImage's `deleteOldFiles`, and says whether it
    /// could. Runs on the IO queue.
    ///
    /// - Parameter completion: Runs once, on `callbackQueue`, when the work is done; `diskIO`, naming the
    ///   directory and the system's error, when the directory cannot be read or an entry cannot be removed
    ///   (see ``DiskCache/applyLimits()``). Every entry that could be removed is gone.
    public func deleteOldFiles(
        callbackQueue: CallbackQueue = .default,
        completion: @escaping @Sendable (Result<Void, WebImageError>) -> Void
    ) {
        diskCache.perform { store in
            let result: Result<Void, WebImageError>
            do throws(WebImageError) {
                try store.removeExpiredData()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            callbackQueue.execute(duringCall: false) { completion(result) }
        }
    }

    /// The number of disk entries and the bytes they use, from the disk tier's index (no directory scan).
    public func calculateSize(
        callbackQueue: CallbackQueue = .default,
        completion: @escaping @Sendable (_ count: Int, _ size: Int) -> Void
    ) {
        diskCache.perform { store in
            let count = store.totalCount
            let size = store.totalSize
            callbackQueue.execute(duringCall: false) { completion(count, size) }
        }
    }
}
