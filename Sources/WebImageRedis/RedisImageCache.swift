#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Logging
import CoreMetrics
import WebImageCore

/// A cache tier on a Redis server that several processes share: encoded image bytes (originals and variants)
/// by key, each expiring after the configuration's time to live.
///
/// As the tier behind a local cache (see <doc:RunningAFleet>):
///
/// ```swift
/// let shared = RedisImageCache(config: RedisImageCacheConfig(host: "cache.internal", port: 6379), coder: registry)
/// let manager = ImageManager(cache: ImageCaches(tiers: [localCache, shared]), loader: downloader, coder: registry)
/// ```
///
/// Or on its own, bytes by key:
///
/// ```swift
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
/// be cancelled; it ends within its timeouts. The `ImageCaching` calls complete as that protocol says (a query on
/// its context's callback queue), and turn the server's failures into misses and dropped stores.
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
    /// Decodes what a query finds and encodes an image stored without its bytes.
    public let coder: any ImageCoding

    let pool: RedisConnectionPool
    private let executor: BoundedExecutor
    /// The commands submitted and not yet ended, for ``flush(callbackQueue:completion:)``.
    private let pendingCommands = PendingWork()
    /// Where a query's bytes are decoded.
    let decodingExecutor: BoundedExecutor
    let breaker: RedisCircuitBreaker
    /// The keys this process has claimed across the fleet, with the token each claim holds.
    let claims: FleetClaims
    let metrics: RedisMetricsRecorder?
    /// Warnings: the server failing, the breaker opening and closing.
    let warningLog: Logger?
    /// Debug lines: fleet waits and claims.
    let debugLog: Logger?

    /// A cache on the server `config` names. Connects lazily: nothing is sent before the first call.
    ///
    /// - Parameters:
    ///   - config: The server, the keys, the limits, the timeouts, the fleet single-flight and the breaker.
    ///   - coder: Decodes the bytes a query finds, and encodes an image stored without its bytes; usually
    ///     `ImageCoderRegistry.shared`.
    ///   - decodingExecutor: Where a query's bytes are decoded.
    ///   - metricsFactory: Where the cache reports ``RedisImageCacheMetrics``; by default the metrics system's
    ///     factory as it is now.
    ///   - logger: Where the cache says that the server fails (each failure that turns a look-up into a miss or
    ///     drops a store) and that the breaker opens or closes, as warnings; fleet claims and waits as debug
    ///     lines. Keys are redacted. Nil, the default, logs nothing.
    public init(
        config: RedisImageCacheConfig,
        coder: any ImageCoding,
        decodingExecutor: BoundedExecutor = .decoding,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger? = nil
    ) {
        self.config = config
        self.coder = coder
        self.decodingExecutor = decodingExecutor
        pool = RedisConnectionPool(
            options: config.connectionOptions,
            capacity: config.poolSize,
            borrowTimeout: config.connectTimeout + config.commandTimeout
        )
        // Each command blocks its thread until the reply: a queue of the cache's own, so that a slow server does
        // not hold the global queue's threads, which decoding and the callbacks share.
        executor = BoundedExecutor(
            width: pool.capacity, queue: DispatchQueue(label: "swift-web-image.redis", qos: .userInitiated, attributes: .concurrent)
        )
        breaker = RedisCircuitBreaker(threshold: config.breakerThreshold, openDuration: config.breakerOpenDuration)
        claims = FleetClaims()
        metrics = RedisMetricsRecorder.make(metricsFactory)
        warningLog = LogMetadata.writing(logger, at: .warning)
        debugLog = LogMetadata.writing(logger, at: .debug)
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

    /// Calls `completion` once every command asked for before this call has ended: the stores, removals and
    /// claim releases already submitted. For a process about to exit, whose last stores and passed claims would
    /// otherwise be lost (other processes would then wait on those claims until they expire). A fleet wait in
    /// progress is not waited for.
    ///
    /// - Parameter completion: Runs once, on `callbackQueue`.
    public func flush(callbackQueue: CallbackQueue = .default, completion: @escaping @Sendable () -> Void) {
        pendingCommands.whenDone { callbackQueue.execute(duringCall: false, onFreeGlobalThread: true, completion) }
    }

    /// Waits until every command asked for before this call has ended; see ``flush(callbackQueue:completion:)``.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flush(callbackQueue: .inline) { continuation.resume() }
        }
    }

    /// Removes every entry under ``RedisImageCacheConfig/keyPrefix`` (fleet claims included), walking the keys
    /// with SCAN in steps of 500 and unlinking each step's: the server stays responsive, and entries stored
    /// during the walk may remain.
    ///
    /// - Parameter completion: How many keys were removed, or the failure that stopped the walk. Runs once, on
    ///   `callbackQueue`.
    public func removeAll(
        callbackQueue: CallbackQueue = .default,
        completion: (@Sendable (Result<Int, WebImageError>) -> Void)? = nil
    ) {
        let pattern = RedisConnection.globEscaped(config.keyPrefix) + "*"
        perform(redisKey: pattern, callbackQueue: callbackQueue, completion: completion) { connection throws(RedisError) in
            var cursor = "0"
            var removed = 0
            repeat {
                let step = try connection.scan(cursor: cursor, matching: pattern, count: 500)
                removed += try connection.unlink(step.keys)
                cursor = step.cursor
            } while cursor != "0"
            return removed
        }
    }

    /// Runs `work` on a pooled connection on the executor, then hands its result, or its error as a
    /// ``WebImageError``, to `completion` once, on `callbackQueue`. While the circuit breaker is open, or when
    /// ``RedisImageCacheConfig/maxQueuedCommands`` already wait, `work` does not run and the result is
    /// `cannotConnect` (its message beginning with ``refusalPrefix``), during the call when `callbackQueue` allows.
    func perform<T: Sendable>(
        redisKey: String,
        callbackQueue: CallbackQueue,
        completion: (@Sendable (Result<T, WebImageError>) -> Void)?,
        work: @escaping @Sendable (RedisConnection) throws(RedisError) -> T
    ) {
        // A server that answers just within its timeouts never opens the breaker: the queue's bound keeps the
        // commands waiting behind it (and the bytes of their stores) from growing without end.
        guard executor.waitingCount < config.maxQueuedCommands else {
            guard let completion else { return }
            let refusal = WebImageError(.cannotConnect, Self.refusalPrefix + "\(config.maxQueuedCommands) commands already wait for "
                + "the Redis server at \(config.host):\(config.port); \(redisKey) is not sent")
            callbackQueue.execute(duringCall: true) { completion(.failure(refusal)) }
            return
        }
        let admission = breaker.admit()
        guard admission != .refused else {
            guard let completion else { return }
            let refusal = WebImageError(.cannotConnect, Self.refusalPrefix + "the Redis server at \(config.host):\(config.port) is "
                + "failing; the circuit breaker holds back commands for \(redisKey)")
            callbackQueue.execute(duringCall: true) { completion(.failure(refusal)) }
            return
        }
        let pool = pool
        let ticket = pendingCommands.begin()
        executor.submitWithFollowUp { [self] in
            defer { pendingCommands.end(ticket) }
            let result: Result<T, WebImageError>
            do throws(RedisError) {
                result = .success(try pool.withConnection(work))
                if let transition = breaker.recordSuccess() { report(transition) }
            } catch {
                result = .failure(error.webImageError(key: redisKey))
                if error.breaksConnection {
                    if let transition = breaker.recordFailure() { report(transition) }
                } else if admission == .probe {
                    breaker.cancelProbe()
                }
            }
            guard let completion else { return nil }
            return { callbackQueue.execute(duringCall: false, onFreeGlobalThread: true) { completion(result) } }
        }
    }

    /// How the message of a command that was not sent (breaker open, queue full) begins.
    static let refusalPrefix = "not sent: "

    /// Logs and counts the breaker opening or closing.
    private func report(_ transition: RedisCircuitBreaker.Transition) {
        metrics?.record(transition)
        let server = "\(config.host):\(config.port)"
        switch transition {
        case .opened:
            warningLog?.warning("Redis server failing; the shared tier is skipped for a while", metadata: [
                "redis_server": .string(server), "open_ms": LogMetadata.milliseconds(config.breakerOpenDuration),
            ])
        case .closed:
            warningLog?.warning("Redis server answers again; the shared tier is back", metadata: ["redis_server": .string(server)])
        }
    }
}
