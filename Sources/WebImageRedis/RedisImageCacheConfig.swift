import WebImageCore

/// The settings of a ``RedisImageCache``: the server, the keys, the limits and the timeouts.
///
/// ```swift
/// var config = RedisImageCacheConfig(host: "cache.internal", port: 6379)
/// config.keyPrefix = "thumbs:"
/// config.timeToLive = .seconds(24 * 3600)
/// let cache = RedisImageCache(config: config, coder: ImageCoderRegistry.shared)
/// ```
public struct RedisImageCacheConfig: Sendable, Equatable {
    /// The server's host name or address.
    public var host: String
    /// The server's TCP port; 6379 by default.
    public var port: Int
    /// The database to select; 0, the server's default, by default.
    public var database = 0
    /// The password to send with AUTH on each new connection; nil, the default, sends none.
    public var password: String?
    /// The ACL user (Redis 6 and later) that AUTH names with ``password``; nil, the default, is the default user.
    public var username: String?
    /// Put before every key, so that several caches (or applications) share a server without seeing each
    /// other's entries; `swift-web-image:` by default.
    public var keyPrefix = "swift-web-image:"
    /// How long an entry lives after it is stored; 7 days by default, as the disk tier's maximum age.
    public var timeToLive: Duration = .seconds(7 * 24 * 3600)
    /// The largest entry stored, in bytes; larger data is not sent to the server. 5 MiB by default.
    public var maxObjectSize = 5 * 1024 * 1024
    /// The most connections open to the server at once, which is also the most Redis commands in flight; 4 by
    /// default.
    public var poolSize = 4
    /// TLS to the server (its `tls-port`); nil, the default, speaks plain TCP. A `rediss://` URL sets it.
    public var tls: RedisTLSOptions?
    /// The longest a connect may take; 500 ms by default.
    public var connectTimeout: Duration = .milliseconds(500)
    /// The longest a command may wait for its reply; 500 ms by default.
    public var commandTimeout: Duration = .milliseconds(500)

    /// Whether a miss claims its key across the fleet, so that of several processes missing one key at once, one
    /// loads and makes it and the others wait for its bytes (see <doc:RunningAFleet>); true by default.
    public var usesFleetSingleFlight = true
    /// How long a claim lasts unless its holder stores the key first: what a holder that crashed, or whose load
    /// failed, costs the processes waiting on it. 10 seconds by default.
    public var claimTimeToLive: Duration = .seconds(10)
    /// The longest a miss waits for another process's bytes before it loads for itself; 20 seconds by default:
    /// longer than ``claimTimeToLive``, so that when a holder crashed, the waiter that takes its claim over has
    /// time to load before the others give up on it.
    public var maxFleetWait: Duration = .seconds(20)
    /// The most commands that wait for a free connection; a command beyond them is not sent (a look-up is a
    /// miss, a store is dropped), so that a slow server costs bounded memory and no waiting. 64 by default.
    public var maxQueuedCommands = 64
    /// The failures of the connection in a row (refused, timed out, lost) that open the circuit breaker; 3 by
    /// default.
    public var breakerThreshold = 3
    /// How long the open breaker keeps commands from the server before one probe may go; 5 seconds by default.
    public var breakerOpenDuration: Duration = .seconds(5)

    /// A configuration for the server at `host`:`port`, with the defaults above.
    public init(host: String = "127.0.0.1", port: Int = 6379) {
        self.host = host
        self.port = port
    }

    /// The options of each connection.
    var connectionOptions: RedisConnection.Options {
        RedisConnection.Options(
            host: host, port: port, database: database, password: password, username: username,
            connectTimeout: connectTimeout, commandTimeout: commandTimeout, tls: tls
        )
    }
}

extension RedisImageCacheConfig: CustomStringConvertible {
    /// The settings, with the password masked: a configuration printed to a log does not carry it.
    public var description: String {
        let password = password == nil ? "nil" : CredentialRedaction.mask
        return "RedisImageCacheConfig(host: \(host), port: \(port), database: \(database), username: \(username ?? "nil"), password: \(password), tls: \(tls != nil), "
            + "keyPrefix: \(keyPrefix), timeToLive: \(timeToLive), maxObjectSize: \(maxObjectSize), poolSize: \(poolSize), "
            + "connectTimeout: \(connectTimeout), commandTimeout: \(commandTimeout), usesFleetSingleFlight: \(usesFleetSingleFlight), "
            + "claimTimeToLive: \(claimTimeToLive), maxFleetWait: \(maxFleetWait), maxQueuedCommands: \(maxQueuedCommands), breakerThreshold: \(breakerThreshold), "
            + "breakerOpenDuration: \(breakerOpenDuration))"
    }
}
