#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Logging
import WebImageCore

/// One load per key across the fleet: a miss claims its key on the server, and the processes that miss it while
/// the claim holds wait for the holder's bytes instead of loading them too.
///
/// - The claim is a Redis key of its own (``claimKey(forKey:)``) holding a token of this process, set only when
///   no entry and no claim is there, in one script with the look-up, and expiring after
///   ``RedisImageCacheConfig/claimTimeToLive``.
/// - The holder's store writes the entry and deletes its claim in one script; a store that fails deletes the
///   claim alone. A holder whose loads all end without storing (or whose bytes are too large) leaves the word
///   `pass` in the claim for a moment instead: the waiters load for themselves at once.
/// - A waiter polls, 5 ms after the first look-up and twice as long after each poll up to 100 ms, for at most
///   ``RedisImageCacheConfig/maxFleetWait``: the bytes end the wait; a claim that vanished without them (its
///   holder crashed, or its claim expired) is taken by the first waiter to see it, which loads; the others wait
///   on. When the wait runs out, the waiter loads for itself.
/// - A process asks for a key's claim once at a time: a second look-up of the key while its claim is asked for or
///   held is a plain read, which neither claims nor waits (``FleetClaims``).
extension RedisImageCache {
    /// The Redis key of the fleet claim on `key`: the prefix, `claim:`, then the key.
    public func claimKey(forKey key: String) -> String {
        config.keyPrefix + "claim:" + key
    }

    /// Looks the entry up; with no entry, claims the key unless another process holds it. The reply: `[1, bytes]`
    /// found, `[2]` claimed by this call, `[3]` held by another process, `[4]` passed (load for yourself).
    static let lookupScript = """
        local v = redis.call('GET', KEYS[1])
        if v then return {1, v} end
        local c = redis.call('GET', KEYS[2])
        if c == 'pass' then return {4} end
        if c == ARGV[1] then return {2} end
        if c then return {3} end
        redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
        return {2}
        """

    /// Stores the entry, then deletes the claim if this process's token still holds it.
    static let storeScript = """
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
        return 1
        """

    /// Replaces this process's claim with `pass` for a moment, so that the waiters load for themselves.
    static let passScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            redis.call('SET', KEYS[1], 'pass', 'PX', ARGV[2])
            return 1
        end
        return 0
        """

    /// Deletes this process's claim: what a failed store does (a full server still takes a DEL).
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// How long a passed claim stands: long enough for the waiters' polls (at most 100 ms apart) to see it, short
    /// enough that the next misses of the key claim it again.
    var passLifetime: Duration { min(config.claimTimeToLive, .seconds(2)) }

    /// What one look-up of the fleet script said.
    enum FleetAnswer: Sendable {
        case found(Data)
        case claimed
        case heldElsewhere
        case passed
    }

    /// The bytes under `key`, or nil for the caller to load them, waiting for another process's load when one
    /// holds the key's claim (with `claims` true and the fleet single-flight on). Never fails: the server's
    /// failures answer nil, counted and logged. `isWanted` is asked before each poll; once it says no, the wait
    /// ends with nil. `completion` runs once, on a library thread.
    func sharedData(
        forKey key: String,
        claims wantsClaim: Bool,
        isWanted: @escaping @Sendable () -> Bool = { true },
        completion: @escaping @Sendable (Data?) -> Void
    ) {
        guard !key.isEmpty else { return completion(nil) }
        let started = ContinuousClock.now
        let start = wantsClaim && config.usesFleetSingleFlight ? claims.start(key) : .read
        guard case .claim(let token) = start else {
            data(forKey: key, callbackQueue: .inline) { [self] result in
                completion(lookedUp(key, result, since: started))
            }
            return
        }
        lookUpOrClaim(key, token: token) { [self] result in
            switch result {
            case .failure(let error):
                claims.notClaimed(key)
                completion(lookedUp(key, .failure(error), since: started))
            case .success(.found(let data)):
                claims.notClaimed(key)
                completion(lookedUp(key, .success(data), since: started))
            case .success(.claimed):
                _ = lookedUp(key, .success(nil), since: started)
                if claims.claimed(key, token: token, expires: started + config.claimTimeToLive) {
                    debugLog?.debug("fleet claim taken", metadata: ["key": LogMetadata.key(key)])
                } else {
                    // Every load that looked the key up ended while the claim was asked for.
                    pass(key, token: token)
                }
                completion(nil)
            case .success(.passed):
                claims.notClaimed(key)
                _ = lookedUp(key, .success(nil), since: started)
                completion(nil)
            case .success(.heldElsewhere):
                claims.notClaimed(key)
                _ = lookedUp(key, .success(nil), since: started)
                debugLog?.debug("fleet wait begins", metadata: ["key": LogMetadata.key(key)])
                poll(key, token: token, attempt: 0, deadline: started + config.maxFleetWait, isWanted: isWanted, completion: completion)
            }
        }
    }

    /// Counts and logs one look-up's result, and turns it into the bytes or nil.
    private func lookedUp(_ key: String, _ result: Result<Data?, WebImageError>, since started: ContinuousClock.Instant) -> Data? {
        switch result {
        case .success(let data?):
            metrics?.record(.hit, duration: ContinuousClock.now - started)
            return data
        case .success(nil):
            metrics?.record(.miss, duration: ContinuousClock.now - started)
            return nil
        case .failure(let error):
            failed(error, key: key, doing: "look-up")
            return nil
        }
    }

    /// Counts and logs a failure of the shared tier that the load goes on without.
    func failed(_ error: WebImageError, key: String, doing what: String) {
        let skipped = error.code == .cannotConnect && error.message.hasPrefix(Self.refusalPrefix)
        if what == "look-up" {
            metrics?.record(skipped ? RedisMetricsRecorder.Lookup.skipped : .error)
        } else {
            metrics?.record(skipped ? RedisMetricsRecorder.Store.skipped : .error)
        }
        // Commands not sent are logged once, when the breaker opens; a full queue is the metric's to show.
        guard !skipped else { return }
        warningLog?.warning("Redis \(what) failed; the load goes on without the shared tier", metadata: [
            "key": LogMetadata.key(key), "error_code": "\(error.code)", "error": "\(CredentialRedaction.redacting(error.message))",
        ])
    }

    /// Waits for the holder's bytes: a poll after a delay that doubles from 5 ms up to 100 ms, until the bytes
    /// come, the claim passes to this process or is passed on, `isWanted` says no, or `deadline`.
    private func poll(
        _ key: String, token: String, attempt: Int, deadline: ContinuousClock.Instant,
        isWanted: @escaping @Sendable () -> Bool, completion: @escaping @Sendable (Data?) -> Void
    ) {
        let now = ContinuousClock.now
        guard isWanted() else { return completion(nil) }
        guard now < deadline else {
            metrics?.record(.timed_out)
            debugLog?.debug("fleet wait timed out; loading here", metadata: ["key": LogMetadata.key(key)])
            return completion(nil)
        }
        let delay = min(Duration.milliseconds(5 << min(attempt, 5)), .milliseconds(100), deadline - now)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(1, nanoseconds))) { [self] in
            guard isWanted() else { return completion(nil) }
            lookUpOrClaim(key, token: token) { [self] result in
                switch result {
                case .failure(let error):
                    failed(error, key: key, doing: "look-up")
                    completion(nil)
                case .success(.found(let data)):
                    metrics?.record(.found)
                    completion(data)
                case .success(.claimed):
                    metrics?.record(.claimed)
                    guard isWanted() else {
                        pass(key, token: token)
                        return completion(nil)
                    }
                    claims.tookOver(key, token: token, expires: ContinuousClock.now + config.claimTimeToLive)
                    debugLog?.debug("fleet claim taken over from a holder that is gone", metadata: ["key": LogMetadata.key(key)])
                    completion(nil)
                case .success(.passed):
                    metrics?.record(.passed)
                    completion(nil)
                case .success(.heldElsewhere):
                    poll(key, token: token, attempt: attempt + 1, deadline: deadline, isWanted: isWanted, completion: completion)
                }
            }
        }
    }

    /// Runs the look-up script for `key` with `token`.
    private func lookUpOrClaim(_ key: String, token: String, completion: @escaping @Sendable (Result<FleetAnswer, WebImageError>) -> Void) {
        let dataKey = redisKey(forKey: key)
        let claimKey = claimKey(forKey: key)
        let milliseconds = RedisConnection.millisecondsArgument(config.claimTimeToLive)
        perform(redisKey: dataKey, callbackQueue: .inline, completion: completion) { connection throws(RedisError) in
            let reply = try connection.evaluate(
                Self.lookupScript, keys: [dataKey, claimKey], arguments: [Data(token.utf8), milliseconds]
            )
            switch reply {
            case .array(let parts) where parts.count == 2:
                if case .integer(1) = parts[0], case .bulk(let data) = parts[1] { return .found(data) }
            case .array(let parts) where parts.count == 1:
                switch parts[0] {
                case .integer(2): return .claimed
                case .integer(3): return .heldElsewhere
                case .integer(4): return .passed
                default: break
                }
            default: break
            }
            throw RedisConnection.unexpected(reply, for: "the fleet look-up")
        }
    }

    /// Stores `data` under `key`, releasing the claim `token` holds on it (taken from ``claims`` by the caller);
    /// a claim whose data is too large to store is passed, and one whose store fails is deleted, so that the
    /// waiters load for themselves.
    func storeReleasingClaim(
        _ data: Data, forKey key: String, token: String?,
        completion: @escaping @Sendable (Result<StoreOutcome, WebImageError>) -> Void
    ) {
        guard data.count <= config.maxObjectSize else {
            if let token { pass(key, token: token) }
            return completion(.success(.tooLarge))
        }
        guard let token else {
            setData(data, forKey: key, callbackQueue: .inline, completion: completion)
            return
        }
        let dataKey = redisKey(forKey: key)
        let claimKey = claimKey(forKey: key)
        let timeToLive = RedisConnection.millisecondsArgument(config.timeToLive)
        perform(redisKey: dataKey, callbackQueue: .inline, completion: { [self] (result: Result<StoreOutcome, WebImageError>) in
            if case .failure = result { release(key, token: token) }
            completion(result)
        }) { connection throws(RedisError) in
            _ = try connection.evaluate(Self.storeScript, keys: [dataKey, claimKey], arguments: [data, timeToLive, Data(token.utf8)])
            return StoreOutcome.stored
        }
    }

    /// Passes this process's claim on `key` once the last load of this process that looked it up has ended
    /// without storing it, so that the waiters load for themselves. A load that did store has already released it.
    public func loadEnded(forKey key: String) {
        guard let token = claims.loadEnded(key) else { return }
        pass(key, token: token)
    }

    /// Replaces the claim `token` holds on `key` with `pass`, for ``passLifetime``.
    func pass(_ key: String, token: String) {
        let claimKey = claimKey(forKey: key)
        let lifetime = RedisConnection.millisecondsArgument(passLifetime)
        debugLog?.debug("fleet claim passed: the load stores nothing here", metadata: ["key": LogMetadata.key(key)])
        perform(redisKey: claimKey, callbackQueue: .inline, completion: nil) { connection throws(RedisError) in
            _ = try connection.evaluate(Self.passScript, keys: [claimKey], arguments: [Data(token.utf8), lifetime])
        }
    }

    /// Deletes the claim `token` holds on `key`, after a store that failed. Best effort: a server that failed the
    /// store may fail this too, and the claim then expires.
    func release(_ key: String, token: String) {
        let claimKey = claimKey(forKey: key)
        perform(redisKey: claimKey, callbackQueue: .inline, completion: nil) { connection throws(RedisError) in
            _ = try connection.evaluate(Self.releaseScript, keys: [claimKey], arguments: [Data(token.utf8)])
        }
    }
}
