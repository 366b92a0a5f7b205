import WebImageCore

/// The settings of a ``RedisImageCache``: the server, the keys, the limits and the timeouts.
///
/// ```swift
/// var config = RedisImageCacheConfig(host: "cache.internal", port: 6379)
/// config.keyPrefix = "thumbs:"
/// config.timeToLive = .seconds(24 * 3600)
/// let cache = RedisImageCache(config: config)
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
    /// The longest a connect may take; 500 ms by default.
    public var connectTimeout: Duration = .milliseconds(500)
    /// The longest a command may wait for its reply; 500 ms by default.
    public var commandTimeout: Duration = .milliseconds(500)

    /// A configuration for the server at `host`:`port`, with the defaults above.
    public init(host: String = "127.0.0.1", port: Int = 6379) {
        self.host = host
        self.port = port
    }

    /// The options of each connection.
    var connectionOptions: RedisConnection.Options {
        RedisConnection.Options(
            host: host, port: port, database: database, password: password,
            connectTimeout: connectTimeout, commandTimeout: commandTimeout
        )
    }
}

extension RedisImageCacheConfig: CustomStringConvertible {
    /// The settings, with the password masked: a configuration printed to a log does not carry it.
    public var description: String {
        let password = password == nil ? "nil" : CredentialRedaction.mask
        return "RedisImageCacheConfig(host: \(host), port: \(port), database: \(database), password: \(password), "
            + "keyPrefix: \(keyPrefix), timeToLive: \(timeToLive), maxObjectSize: \(maxObjectSize), poolSize: \(poolSize), "
            + "connectTimeout: \(connectTimeout), commandTimeout: \(commandTimeout))"
    }
}
