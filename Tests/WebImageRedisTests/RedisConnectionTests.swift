import Foundation
import Testing
@testable import WebImageRedis

/// One hiredis connection against a real server: binary-safe commands, expiry, typed errors, and the context
/// freed once.
@Suite final class RedisConnectionTests {
    let server: RedisTestServer

    init() throws {
        server = try RedisTestServer()
    }

    /// Every byte value, zero bytes included, comes back as it went: nothing is formatted into a command string.
    @Test func roundTripsBinaryBytes() throws {
        let connection = try RedisConnection(options: server.connectionOptions())
        let bytes = Data((0..<256).map { UInt8($0) } + [0, 0, 13, 10, 36, 42, 0])
        let key = "binary\u{0}key %s %b\r\n"
        try connection.set(key, value: bytes, timeToLive: nil)
        #expect(try connection.get(key) == bytes)
        #expect(try connection.get("binary") == nil, "the key is not cut at its zero byte")

        try connection.set("empty", value: Data(), timeToLive: nil)
        #expect(try connection.get("empty") == Data())
        #expect(try connection.get("missing") == nil)
    }

    @Test func deletesAndPings() throws {
        let connection = try RedisConnection(options: server.connectionOptions())
        try connection.ping()
        try connection.set("a", value: Data("1".utf8), timeToLive: nil)
        #expect(try connection.delete("a"))
        #expect(try !connection.delete("a"))
        #expect(try connection.get("a") == nil)
    }

    /// SET with PX: the key has its time to live, and is gone once it has passed (a bounded wait).
    @Test func expiresAfterItsTimeToLive() throws {
        let connection = try RedisConnection(options: server.connectionOptions())
        try connection.set("short", value: Data("x".utf8), timeToLive: .milliseconds(800))
        try connection.set("long", value: Data("y".utf8), timeToLive: .seconds(60))
        // nil once expired, on a slow machine; the wait below then proves that it expires at all.
        if let left = try connection.timeToLive("short") {
            #expect(left > 0 && left <= 800)
        }
        #expect(try connection.timeToLive("long").map { $0 > 30_000 && $0 <= 60_000 } == true)

        var attempts = 0
        while try connection.get("short") != nil, attempts < 150 {
            attempts += 1
            usleep(20_000)
        }
        #expect(try connection.get("short") == nil, "still there after \(attempts) checks")
        #expect(try connection.get("long") == Data("y".utf8))
    }

    /// An error reply carries the server's message and leaves the connection usable.
    @Test func serverErrorsAreTypedAndKeepTheConnection() throws {
        let connection = try RedisConnection(options: server.connectionOptions())
        let error = #expect(throws: RedisError.self) { try connection.command([Data("NOSUCHCOMMAND".utf8)]) }
        #expect(error?.kind == .server)
        #expect(error?.message.contains("unknown command") == true, "\(String(describing: error))")
        #expect(!connection.isBroken)
        try connection.ping()
    }

    /// Nothing listens: the connect fails with `connectionRefused`, well before its long timeout, and the error
    /// maps to `cannotConnect`. (The bounds prove that nothing hangs; they leave room for a loaded machine.)
    @Test func refusedConnectFailsQuickly() throws {
        let port = try RedisTestServer.freePort()
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: RedisError.self) {
            _ = try RedisConnection(options: .init(host: "127.0.0.1", port: port, connectTimeout: .seconds(30)))
        }
        #expect(clock.now - start < .seconds(10))
        #expect(error?.kind == .connectionRefused, "\(String(describing: error))")
        #expect(error?.webImageError(key: "k").code == .cannotConnect)
    }

    /// A reply slower than the command timeout fails with `timedOut` and breaks the connection.
    @Test func slowReplyTimesOut() throws {
        let connection = try RedisConnection(options: server.connectionOptions(commandTimeout: .milliseconds(200)))
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: RedisError.self) {
            _ = try connection.command([Data("BLPOP".utf8), Data("nothing".utf8), Data("10".utf8)])
        }
        #expect(clock.now - start < .seconds(5))
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
        #expect(connection.isBroken)
        #expect(throws: RedisError.self) { try connection.ping() }
    }

    /// The server closes the connection (CLIENT KILL): the next command fails with `connectionLost`.
    @Test func closedByTheServer() throws {
        let connection = try RedisConnection(options: server.connectionOptions())
        let killer = try RedisConnection(options: server.connectionOptions())
        _ = try killer.command([Data("CLIENT".utf8), Data("KILL".utf8), Data("TYPE".utf8), Data("normal".utf8), Data("SKIPME".utf8), Data("yes".utf8)])
        let error = #expect(throws: RedisError.self) { try connection.ping() }
        #expect(error?.kind == .connectionLost, "\(String(describing: error))")
        #expect(connection.isBroken)
    }

    /// SELECT: two databases of one server hold different values under one key.
    @Test func selectsTheDatabase() throws {
        var options = server.connectionOptions()
        let first = try RedisConnection(options: options)
        options.database = 3
        let third = try RedisConnection(options: options)
        try first.set("k", value: Data("0".utf8), timeToLive: nil)
        try third.set("k", value: Data("3".utf8), timeToLive: nil)
        #expect(try first.get("k") == Data("0".utf8))
        #expect(try third.get("k") == Data("3".utf8))
    }

    /// AUTH with a password the server does not have is refused with the server's message; the context is freed.
    @Test func refusedAuthIsAServerError() throws {
        var options = server.connectionOptions()
        options.password = "not-the-password"
        let tracker = RedisConnectionTracker()
        let error = #expect(throws: RedisError.self) { _ = try RedisConnection(options: options, tracker: tracker) }
        #expect(error?.kind == .server, "\(String(describing: error))")
        #expect(tracker.liveCount == 0)
    }

    /// AUTH with the right password succeeds; without it, commands are refused.
    @Test func authenticates() throws {
        let admin = try RedisConnection(options: server.connectionOptions())
        _ = try admin.command([Data("CONFIG".utf8), Data("SET".utf8), Data("requirepass".utf8), Data("s3cret".utf8)])
        var options = server.connectionOptions()
        options.password = "s3cret"
        let connection = try RedisConnection(options: options)
        try connection.ping()
        let anonymous = try RedisConnection(options: server.connectionOptions())
        let error = #expect(throws: RedisError.self) { try anonymous.ping() }
        #expect(error?.kind == .server)
    }

    /// Each context is freed once, when its connection goes away.
    @Test func freesTheContextOnce() throws {
        let tracker = RedisConnectionTracker()
        do {
            let a = try RedisConnection(options: server.connectionOptions(), tracker: tracker)
            let b = try RedisConnection(options: server.connectionOptions(), tracker: tracker)
            try a.ping()
            try b.ping()
            #expect(tracker.liveCount == 2)
        }
        #expect(tracker.openedCount == 2)
        #expect(tracker.liveCount == 0)
    }
}
