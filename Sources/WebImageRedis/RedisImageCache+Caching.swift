#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The cache as a tier an image manager uses: behind a local ``ImageCache`` in an ``ImageCaches`` chain
/// (``ImageCaches/init(tiers:)``), or alone.
///
/// The server holds one tier of encoded bytes, which this conformance presents as the disk tier: a request names
/// it with ``ImageCacheType/disk`` (or ``ImageCacheType/all``), and a hit reports ``ImageCacheType/disk``. There is
/// no memory tier here; the local cache in front keeps one.
///
/// Degrades, never fails a load: a look-up the server does not answer (down, slow, or the circuit breaker open)
/// is a miss, and a store it does not take is dropped; both are logged and counted (``RedisImageCacheMetrics``).
/// The calls of ``RedisImageCache``'s own data API report those failures.
extension RedisImageCache: ImageCaching {
    /// Looks `key` up when `cacheType` includes the disk tier, and decodes the bytes found with the context's
    /// coder (or ``coder``) and decode options on ``decodingExecutor``. A miss whose load stores the key on disk
    /// afterwards (by the context's store types, and without `fromCacheOnly`) claims the key across the fleet, or
    /// waits for the process that holds the claim (see <doc:RunningAFleet>). Bytes that do not decode are a miss. Cancelling the token ends a fleet
    /// wait at its next poll and skips the decode.
    ///
    /// An image manager stores what it loads after a miss, and says when its load has ended. Code of your own
    /// that queries and then stores nothing calls ``loadEnded(forKey:)``, or sets the context's store type
    /// without the disk, so that other processes do not wait on the claim until it expires.
    @discardableResult
    public func query(
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: @escaping @Sendable (Result<ImageCacheQueryResult, WebImageError>) -> Void
    ) -> CacheQueryToken {
        let (token, promise) = CacheQueryToken.makePromise(key: key, context: context, completion: completion)
        guard cacheType.includesDisk, !key.isEmpty else {
            promise.succeed(.miss)
            return token
        }
        let claims = !options.contains(.fromCacheOnly) && Self.storesToDisk(key: key, context: context)
        let coder = context.imageCoder ?? self.coder
        let decodeOptions = context.decodeOptions(for: options, cacheKey: key)
        sharedData(forKey: key, claims: claims, isWanted: { !promise.isFinished }) { [decodingExecutor] data in
            guard let data else {
                promise.succeed(.miss)
                return
            }
            decodingExecutor.submit {
                guard !promise.isFinished else { return }
                do throws(WebImageError) {
                    let image = try coder.decodeForLoad(data, options: decodeOptions)
                    promise.succeed(ImageCacheQueryResult(image: image, data: data, cacheType: .disk))
                } catch {
                    promise.succeed(.miss)
                }
            }
        }
        return token
    }

    /// Whether the load that queries `key` with `context` stores it on disk after a miss: a thumbnail's query of
    /// the full-size key stores the original as ``ImageContext/originalStoreCacheType`` says (disk by default),
    /// any other query as ``ImageContext/storeCacheType`` says.
    static func storesToDisk(key: String, context: ImageContext) -> Bool {
        let isThumbnail = context.thumbnailPixelSize.map { !$0.isEmpty } ?? false
        if isThumbnail, !ImageCacheKeys.isThumbnailKey(key) {
            return (context.originalStoreCacheType ?? .disk).includesDisk
        }
        return (context.storeCacheType ?? .all).includesDisk
    }

    /// Stores the bytes of `image` under `key` when `cacheType` includes the disk tier: `data` when given, else
    /// the bytes an animation decoded on demand came from, else `image` encoded on ``decodingExecutor`` with the
    /// context's coder and encode options. Releases this process's fleet claim on the key; a claim whose bytes
    /// are not stored (too large, or not encodable) is passed, so that the processes waiting on it load for
    /// themselves, as is the claim of a load that ends without storing here (``loadEnded(forKey:)``).
    ///
    /// - Parameter completion: Runs once, on the context's callback queue: success when stored, too large (not
    ///   sent) or dropped because the server failed (logged and counted: the load that stores keeps its image in
    ///   the tiers in front); a failure only when the image could not be encoded.
    public func store(
        _ image: Image?,
        data: Data?,
        key: String,
        options: ImageOptions,
        context: ImageContext,
        cacheType: ImageCacheType,
        completion: (@Sendable (Result<Void, WebImageError>) -> Void)?
    ) {
        let callbackQueue = context.callbackQueue ?? .default
        let complete: @Sendable (Result<Void, WebImageError>, Bool) -> Void = { result, duringCall in
            guard let completion else { return }
            callbackQueue.execute(duringCall: duringCall) { completion(result) }
        }
        guard !key.isEmpty, image != nil || data != nil, cacheType.includesDisk else {
            complete(.success(()), true)
            return
        }
        // Taken now, before any encode: the load's end (``loadEnded(forKey:)``) must not pass a claim whose
        // bytes are on their way.
        let token = claims.takeForStore(key)
        let encodeOptions = context.encodeOptions ?? ImageEncodeOptions()
        if let bytes = data ?? image.flatMap({ ImageCache.originalData(of: $0, encodeOptions: encodeOptions) }) {
            storeBytes(bytes, forKey: key, token: token, complete: complete)
            return
        }
        guard let image else { return }
        let coder = context.imageCoder ?? self.coder
        decodingExecutor.submit { [self] in
            do throws(WebImageError) {
                let bytes = try coder.encode(image, as: coder.encodingFormat(for: image), options: encodeOptions)
                storeBytes(bytes, forKey: key, token: token, complete: complete)
            } catch {
                if let token { pass(key, token: token) }
                complete(.failure(WebImageError(error.code, "encoding the image for key \(key) failed: \(error.message)")), false)
            }
        }
    }

    /// Sends `bytes`, releasing the claim, and counts the outcome.
    private func storeBytes(
        _ bytes: Data, forKey key: String, token: String?, complete: @escaping @Sendable (Result<Void, WebImageError>, Bool) -> Void
    ) {
        storeReleasingClaim(bytes, forKey: key, token: token) { [self] result in
            switch result {
            case .success(.stored):
                metrics?.record(RedisMetricsRecorder.Store.stored)
                complete(.success(()), false)
            case .success(.tooLarge):
                metrics?.record(RedisMetricsRecorder.Store.too_large)
                complete(.success(()), false)
            case .failure(let error):
                failed(error, key: key, doing: "store")
                complete(.success(()), false)
            }
        }
    }

    /// Removes `key`'s entry from the server when `cacheType` includes the disk tier. `completion` runs once, on
    /// a library thread, whether or not the server answered.
    public func remove(key: String, cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        guard cacheType.includesDisk, !key.isEmpty else {
            completion?()
            return
        }
        removeData(forKey: key, callbackQueue: .default) { [self] result in
            if case .failure(let error) = result { failed(error, key: key, doing: "remove") }
            completion?()
        }
    }

    /// Whether the server holds `key`: `.disk` when it does, `.none` when it does not or does not answer.
    public func contains(key: String, cacheType: ImageCacheType, completion: @escaping @Sendable (ImageCacheType) -> Void) {
        guard cacheType.includesDisk, !key.isEmpty else { return completion(.none) }
        let redisKey = redisKey(forKey: key)
        perform(redisKey: redisKey, callbackQueue: .default, completion: { (result: Result<Bool, WebImageError>) in
            completion((try? result.get()) == true ? .disk : .none)
        }) { connection throws(RedisError) in
            try connection.exists(redisKey)
        }
    }

    /// Removes every entry under the prefix when `cacheType` includes the disk tier (``removeAll(callbackQueue:completion:)``).
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) {
        guard cacheType.includesDisk else {
            completion?()
            return
        }
        removeAll(callbackQueue: .default) { [self] result in
            if case .failure(let error) = result { failed(error, key: config.keyPrefix, doing: "clear") }
            completion?()
        }
    }

    /// The bytes under `key`, for a data load; a miss claims the key across the fleet or waits on the process that
    /// holds its claim. Nil on a miss or when the server does not answer. `completion` runs once, on a library
    /// thread.
    public func diskData(forKey key: String, completion: @escaping @Sendable (Data?) -> Void) {
        sharedData(forKey: key, claims: true, completion: completion)
    }
}
