#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageCache {
    /// Looks `key` up: memory first, then disk, as `cacheType`, `options` and `context` say.
    ///
    /// - A memory hit completes during the call (on the caller's thread with the default callback queue), unless
    ///   `queryMemoryData` asks for the disk data too.
    /// - A disk look-up reads on the IO queue and decodes on the executor with the context's decode options
    ///   (thumbnail size and so on); the image goes back into memory unless the context's store type leaves memory
    ///   out, under the thumbnail key when a thumbnail was decoded from a full-size entry. With
    ///   `queryDiskDataSync` the read and decode happen during the call.
    /// - Concurrent queries for the same key and decode options share one read and one decode.
    /// - A miss completes with an empty result (cache type `.none`); a file that fails to decode is removed and
    ///   reported as a miss.
    ///
    /// - Returns: A token that cancels the query. Cancellation is checked before the read, before the decode and
    ///   before the completion; a cancelled query completes once, with `cancelled`.
    @discardableResult
    public func query(
        key: String,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        cacheType: ImageCacheType = .all,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> CacheQueryToken {
        let plan = QueryPlan(cache: self, key: key, options: options, context: context)
        let latch = CompletionLatch<ImageCacheQueryResult>(
            callbackQueue: plan.callbackQueue,
            cancellationError: WebImageError(.cancelled, "the cache query for \(key) was cancelled"),
            handler: completion
        )
        let token = CacheQueryToken(key: key, latch: latch)
        guard !key.isEmpty, cacheType != .none else {
            latch.finish(.success(.miss), duringCall: true)
            return token
        }

        let memoryImage = cacheType.includesMemory ? plan.memoryHit(in: self) : nil
        if cacheType == .memory || (memoryImage != nil && !options.contains(.queryMemoryData)) {
            latch.finish(.success(ImageCacheQueryResult(image: memoryImage, cacheType: memoryImage == nil ? .none : .memory)), duringCall: true)
            return token
        }

        if let memoryImage {
            // A memory hit whose disk data was asked for too.
            if options.contains(.queryMemoryDataSync) {
                let data = diskCache.data(forKey: key)
                latch.finish(.success(ImageCacheQueryResult(image: memoryImage, data: data, cacheType: .memory)), duringCall: true)
            } else {
                diskCache.perform { store in
                    guard !latch.isDone else { return }
                    let data = store.data(forKey: key)
                    latch.finish(.success(ImageCacheQueryResult(image: memoryImage, data: data, cacheType: .memory)))
                }
            }
            return token
        }

        if options.contains(.queryDiskDataSync) {
            let image = diskCache.data(forKey: key).flatMap { data in
                decodeDiskData(data, plan: plan, extendedObject: diskExtendedObject(forKey: key))
                    .map { ImageCacheQueryResult(image: $0, data: data, cacheType: .disk) }
            }
            latch.finish(.success(image ?? .miss), duringCall: true)
            return token
        }

        queryDisk(plan, latch: latch, rechecksMemory: cacheType.includesMemory)
        return token
    }

    /// The asynchronous disk look-up: joins a read in flight for the same plan, or starts one. A query that is
    /// cancelled leaves the read; the last one to leave stops it before its next step.
    private func queryDisk(_ plan: QueryPlan, latch: CompletionLatch<ImageCacheQueryResult>, rechecksMemory: Bool) {
        guard let readKey = plan.readKey(rechecksMemory: rechecksMemory) else {
            // The context's own coder makes the decode this query's alone.
            readDisk(plan, rechecksMemory: rechecksMemory, isWanted: { !latch.isDone }) { latch.finish(.success($0)) }
            return
        }
        let ticket = reads.join(readKey, receiver: { latch.finish(.success($0)) }) { flight in
            readDisk(plan, rechecksMemory: rechecksMemory, isWanted: { flight.isWanted }, deliver: flight.finish)
        }
        latch.onCancel { [reads] in reads.leave(ticket) }
    }

    /// Reads the plan's data on the IO queue and decodes it on the executor, asking `isWanted` before each step.
    private func readDisk(
        _ plan: QueryPlan,
        rechecksMemory: Bool,
        isWanted: @escaping @Sendable () -> Bool,
        deliver: @escaping @Sendable (ImageCacheQueryResult) -> Void
    ) {
        diskCache.perform { [self] store in
            guard isWanted() else { return }
            // Another query or a store may have put the image in memory since this query missed there.
            if rechecksMemory, let image = plan.memoryHit(in: self) {
                deliver(ImageCacheQueryResult(image: image, cacheType: .memory))
                return
            }
            guard let data = store.data(forKey: plan.key) else {
                deliver(.miss)
                return
            }
            let extendedObject = ImageCacheEntryExtras.extendedObject(in: store.extendedData(forKey: plan.key))
            guard isWanted() else { return }
            executor.submit { [self] in
                guard isWanted() else { return }
                let image = decodeDiskData(data, plan: plan, extendedObject: extendedObject)
                deliver(image.map { ImageCacheQueryResult(image: $0, data: data, cacheType: .disk) } ?? .miss)
            }
        }
    }
}
