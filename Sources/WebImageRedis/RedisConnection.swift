import CHiredis
import CRedisTLS
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One synchronous connection to a Redis server, over hiredis: each command writes its request and blocks the
/// calling thread until the reply, or until the command timeout.
///
/// ```swift
/// let connection = try RedisConnection(options: .init(host: "127.0.0.1", port: 6379))
/// try connection.set("greeting", value: Data("hello".utf8), timeToLive: .seconds(60))
/// let value = try connection.get("greeting")     // Data("hello".utf8)
/// ```
///
/// Commands are binary safe: keys and values go to the server as counted bytes, never formatted into a command
/// string. A failure of the connection itself (refused, timed out, closed by the server) leaves it
/// ``isBroken``: every later command fails at once, and the owner drops it (``RedisConnectionPool`` does). An
/// error reply from the server leaves it usable.
///
/// Not thread-safe: one thread at a time uses a connection, which is what the pool guarantees by lending each to
/// one borrower. The hiredis context is freed once, when the connection is deinitialised.
package final class RedisConnection: @unchecked Sendable {
    // Sendable because the pool lends a connection to one borrower at a time, and only the borrower touches
    // `context` and `isBroken` while it holds it.

    /// Where and how to connect.
    package struct Options: Sendable, Equatable {
        /// The server's host name or address.
        package var host: String
        /// The server's TCP port.
        package var port: Int
        /// The database to select after connecting; 0, the server's default, sends no SELECT.
        package var database: Int
        /// The password to send with AUTH after connecting; nil sends none.
        package var password: String?
        /// The ACL user to authenticate as (Redis 6 and later), with ``password``; nil authenticates as the
        /// default user.
        package var username: String?
        /// The longest a connect may take.
        package var connectTimeout: Duration
        /// The longest a command may wait for its reply (the socket's send and receive timeout).
        package var commandTimeout: Duration
        /// TLS to the server; nil speaks plain TCP.
        package var tls: RedisTLSOptions?

        package init(
            host: String, port: Int, database: Int = 0, password: String? = nil, username: String? = nil,
            connectTimeout: Duration = .seconds(1), commandTimeout: Duration = .seconds(1), tls: RedisTLSOptions? = nil
        ) {
            self.host = host
            self.port = port
            self.database = database
            self.password = password
            self.username = username
            self.connectTimeout = connectTimeout
            self.commandTimeout = commandTimeout
            self.tls = tls
        }
    }

    /// The options the connection was made with.
    package let options: Options
    /// Whether the connection failed and can no longer be used.
    package private(set) var isBroken = false

    private let context: UnsafeMutablePointer<redisContext>
    private let tracker: RedisConnectionTracker?

    /// Connects, sets the command timeout, authenticates and selects the database, waiting for each.
    ///
    /// - Throws: ``RedisError`` of kind `connectionRefused` when nothing listens, `timedOut` when the connect takes
    ///   longer than ``Options/connectTimeout``, `server` when AUTH or SELECT is refused.
    package init(options: Options, tracker: RedisConnectionTracker? = nil) throws(RedisError) {
        self.options = options
        context = try RedisConnection.open(options)
        self.tracker = tracker
        tracker?.opened()
    }

    deinit {
        redisFree(context)
        tracker?.closed()
    }

    /// Sends `arguments` (the command's name first) and returns the reply.
    ///
    /// - Throws: ``RedisError``: `server` with the server's message for an error reply; a connection failure,
    ///   after which ``isBroken`` is true.
    package func command(_ arguments: [Data]) throws(RedisError) -> RedisReply {
        guard !isBroken else {
            throw RedisError(.connectionLost, "the connection failed earlier and is closed")
        }
        do {
            return try RedisConnection.send(arguments, on: context)
        } catch {
            if error.breaksConnection { isBroken = true }
            throw error
        }
    }

    // MARK: Opening

    /// A context connected and set up as `options` says; freed here when any step fails.
    private static func open(_ options: Options) throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        var osError: Int32 = 0
        let connected: UnsafeMutablePointer<redisContext>?
        if let tls = options.tls {
            let socket = try openTLS(options, tls)
            connected = redisConnectFd(socket)
            // Without a context nothing owns the socket: closing it ends the TLS session's thread.
            if connected == nil { close(socket) }
        } else {
            connected = chiredis_connect(options.host, Int32(clamping: options.port), milliseconds(options.connectTimeout), &osError)
        }
        guard let context = connected else {
            throw RedisError(.cannotConnect, "hiredis could not allocate a connection")
        }
        do throws(RedisError) {
            try check(context, osError: osError)
            guard chiredis_set_timeout(context, milliseconds(options.commandTimeout), &osError) == REDIS_OK else {
                try check(context, osError: osError)
                throw RedisError(.cannotConnect, "the command timeout could not be set")
            }
            if let password = options.password {
                let user = options.username.map { [Data($0.utf8)] } ?? []
                _ = try send([Data("AUTH".utf8)] + user + [Data(password.utf8)], on: context)
            }
            if options.database != 0 {
                _ = try send([Data("SELECT".utf8), Data(String(options.database).utf8)], on: context)
            }
        } catch {
            redisFree(context)
            throw error
        }
        return context
    }

    /// Opens a TLS session to the server and returns the local socket that reaches it, which hiredis then owns
    /// (and closes, which ends the session).
    private static func openTLS(_ options: Options, _ tls: RedisTLSOptions) throws(RedisError) -> Int32 {
        var localSocket: Int32 = -1
        var osError: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let timeout = milliseconds(max(options.connectTimeout, options.commandTimeout))
        let status = withOptionalCString(tls.trustedCertificatesFile) { trusted in
            withOptionalCString(tls.serverName) { serverName in
                withOptionalCString(tls.clientCertificateFile) { certificate in
                    withOptionalCString(tls.clientPrivateKeyFile) { key in
                        var settings = wi_redis_tls_options(
                            ca_file: trusted, server_name: serverName, verify_peer: tls.verifiesCertificate ? 1 : 0,
                            certificate_file: certificate, private_key_file: key, timeout_ms: timeout
                        )
                        return wi_redis_tls_open(
                            options.host, Int32(clamping: options.port), &settings, &localSocket, &osError,
                            &message, message.count
                        )
                    }
                }
            }
        }
        guard status == 0 else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw RedisError.tls(message: text, osError: osError)
        }
        return localSocket
    }

    /// Calls `body` with `text` as a C string, or with nil.
    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// Throws the context's error, if it has one.
    private static func check(_ context: UnsafeMutablePointer<redisContext>, osError: Int32) throws(RedisError) {
        let flags = chiredis_error(context)
        guard flags != REDIS_OK else { return }
        throw RedisError.context(flags: flags, message: String(cString: chiredis_error_message(context)), osError: osError)
    }

    /// `duration` in whole milliseconds, at least 1: hiredis reads a zero timeout as none.
    private static func milliseconds(_ duration: Duration) -> Int {
        Int(clamping: wholeMilliseconds(duration))
    }

    // MARK: Sending

    /// Sends one command with counted arguments and copies its reply; frees hiredis's reply object.
    private static func send(_ arguments: [Data], on context: UnsafeMutablePointer<redisContext>) throws(RedisError) -> RedisReply {
        // All arguments in one buffer, so that one pointer stays valid for every argument at once. The trailing
        // byte keeps the buffer non-empty when every argument is.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        var lengths: [Int] = []
        for argument in arguments {
            offsets.append(buffer.count)
            lengths.append(argument.count)
            buffer.append(contentsOf: argument)
        }
        buffer.append(0)
        var osError: Int32 = 0
        let reply = buffer.withUnsafeBufferPointer { bytes -> UnsafeMutablePointer<redisReply>? in
            let base = UnsafeRawPointer(bytes.baseAddress!)
            var argv: [UnsafePointer<CChar>?] = offsets.map { base.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            return argv.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lengths in
                    chiredis_command_argv(context, Int32(arguments.count), argv.baseAddress, lengths.baseAddress, &osError)
                }
            }
        }
        guard let reply else {
            try check(context, osError: osError)
            throw RedisError(.connectionLost, "hiredis returned no reply and no error")
        }
        defer { freeReplyObject(reply) }
        return try RedisReply(copying: reply)
    }
}
