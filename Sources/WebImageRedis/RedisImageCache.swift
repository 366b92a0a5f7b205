#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// A cache tier on a Redis server that several processes share: encoded image bytes (originals and variants)
/// by key, each expiring after the configuration's time to live.
///
/// ```swift
/// let shared = RedisImageCache(config: RedisImageCacheConfig(host: "cache.internal", port: 6379))
/// shared.setData(jpegData, forKey: url.absoluteString)
/// shared.data(forKey: url.absoluteString) { result in
///     if case .success(let data?) = result { decodeAndUse(data) }
/// }
/// ```
///
/// Every key is stored under ``RedisImageCacheConfig/keyPrefix`` followed by the key, so caches with different
/// prefixes share a server without seeing each other's entries. Data larger than
/// ``RedisImageCacheConfig/maxObjectSize`` is not sent to the server.
///
/// ## Threading
/// The calls return at once. The Redis work runs on the cache's own executor, as many commands at once as the
/// pool has connections (``RedisImageCacheConfig/poolSize``), never on the caller's thread; each command is
/// bounded by the connect and command timeouts. Every completion runs exactly once, on `callbackQueue`: with the
/// result, or with the failure (`cannotConnect` when the server is down, `timedOut`, `connectionLost`,
/// `badServerResponse` with the server's message), the Redis key named in the message. A command in flight cannot
/// be cancelled; it ends within its timeouts.
public final class RedisImageCache: Sendable {
    /// What became of data given to ``setData(_:forKey:callbackQueue:completion:)``.
    public enum StoreOutcome: Sendable, Hashable {
        /// The server stored it.
        case stored
        /// It is larger than ``RedisImageCacheConfig/maxObjectSize`` and was not sent.
        case tooLarge
    }

    /// The settings the cache was made with.
    public let config: RedisImageCacheConfig

    let pool: RedisConnectionPool
    private let executor: BoundedExecutor

    /// A cache on the server `config` names. Connects lazily: nothing is sent before the first call.
    public init(config: RedisImageCacheConfig) {
        self.config = config
        pool = RedisConnectionPool(
            options: config.connectionOptions,
            capacity: config.poolSize,
            borrowTimeout: config.connectTimeout + config.commandTimeout
        )
        executor = BoundedExecutor(width: pool.capacity)
    }

    /// The Redis key of `key`: the prefix, then the key.
    public func redisKey(forKey key: String) -> String {
        config.keyPrefix + key
    }

    /// Reads the bytes stored under `key`.
    ///
    /// - Parameter completion: The bytes, nil when the server has none (never stored, expired or evicted), or the
    ///   failure. Runs once, on `callbackQueue`.
    public func data(
        forKey key: String,
        callbackQueue: CallbackQueue = .default,
        completion: @escaping @Sendable (Result<Data?, WebImageError>) -> Void
    ) {
        let redisKey = redisKey(forKey: key)
        perform(redisKey: redisKey, callbackQueue: callbackQueue, completion: completion) { connection throws(RedisError) in
            try connection.get(redisKey)
        }
    }

    /// Stores `data` under `key`, replacing what was there, to expire after ``RedisImageCacheConfig/timeToLive``.
    /// Data larger than ``RedisImageCacheConfig/maxObjectSize`` is not sent: the outcome says
    /// ``StoreOutcome/tooLarge``, during the call when `callbackQueue` allows it.
    ///
    /// - Parameter completion: Whether the data was stored, or the failure. Runs once, on `callbackQueue`.
    public func setData(
        _ data: Data,
        forKey key: String,
        callbackQueue: CallbackQueue = .default,
        completion: (@Sendable (Result<StoreOutcome, WebImageError>) -> Void)? = nil
    ) {
        guard data.count <= config.maxObjectSize else {
            if let completion {
                callbackQueue.execute(duringCall: true) { completion(.success(.tooLarge)) }
            }
            return
        }
        let redisKey = redisKey(forKey: key)
        let timeToLive = config.timeToLive
        perform(redisKey: redisKey, callbackQueue: callbackQueue, completion: completion) { connection throws(RedisError) in
            try connection.set(redisKey, value: data, timeToLive: timeToLive)
            return StoreOutcome.stored
        }
    }

    /// Removes what is stored under `key`.
    ///
    /// - Parameter completion: Whether there was an entry, or the failure. Runs once, on `callbackQueue`.
    public func removeData(
        forKey key: String,
        callbackQueue: CallbackQueue = .default,
        completion: (@Sendable (Result<Bool, WebImageError>) -> Void)? = nil
    ) {
        let redisKey = redisKey(forKey: key)
        perform(redisKey: redisKey, callbackQueue: callbackQueue, completion: completion) { connection throws(RedisError) in
            try connection.delete(redisKey)
        }
    }

    /// Runs `work` on a pooled connection on the executor, then hands its result, or its error as a
    /// ``WebImageError``, to `completion` once, on `callbackQueue`.
    private func perform<T: Sendable>(
        redisKey: String,
        callbackQueue: CallbackQueue,
        completion: (@Sendable (Result<T, WebImageError>) -> Void)?,
        work: @escaping @Sendable (RedisConnection) throws(RedisError) -> T
    ) {
        let pool = pool
        executor.submitWithFollowUp {
            let result: Result<T, WebImageError>
            do throws(RedisError) {
                result = .success(try pool.withConnection(work))
            } catch {
                result = .failure(error.webImageError(key: redisKey))
            }
            guard let completion else { return nil }
            return { callbackQueue.execute(duringCall: false, onFreeGlobalThread: true) { completion(result) } }
        }
    }
}
