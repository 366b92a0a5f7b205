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

    /// Empties the tiers `cacheType` names: memory during the call, disk on the IO queue.
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
    /// the least recently used ones until it is under half of the limit. Runs on the IO queue.
    public func removeExpiredData(callbackQueue: CallbackQueue = .default, completion: (@Sendable () -> Void)? = nil) {
        diskCache.perform { store in
            store.removeExpiredData()
            if let completion { callbackQueue.execute(duringCall: false, completion) }
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
