import Foundation
import Testing
@testable import WebImageRedis

/// The pool: connections reused, bounded, dropped when broken, reopened after a server restart, all freed.
@Suite final class RedisConnectionPoolTests {
    let server: RedisTestServer

    init() throws {
        server = try RedisTestServer()
    }

    @Test func reusesOneConnectionForSequentialWork() throws {
        let pool = RedisConnectionPool(options: server.connectionOptions(), capacity: 3)
        for index in 0..<20 {
            try pool.run { try $0.set("k\(index)", value: Data([UInt8(index)]), timeToLive: .seconds(60)) }
        }
        #expect(try pool.run { try $0.get("k7") } == Data([7]))
        #expect(pool.tracker.openedCount == 1)
        #expect(pool.idleCount == 1)
    }

    /// Many threads at once never open more connections than the capacity.
    @Test func opensAtMostItsCapacity() async throws {
        let pool = RedisConnectionPool(options: server.connectionOptions(), capacity: 2, borrowTimeout: .seconds(10))
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let value = try? pool.run { connection in
                        try connection.set("c\(index)", value: Data([UInt8(index)]), timeToLive: nil)
                        return try connection.get("c\(index)")
                    }
                    return value == Data([UInt8(index)])
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 }, "every task read back what it wrote")
        #expect(pool.tracker.openedCount <= 2)
        #expect(pool.tracker.liveCount == pool.idleCount)
    }

    /// A borrower that finds every connection lent waits at most the borrow timeout, then fails.
    @Test func borrowingWaitsAtMostItsTimeout() throws {
        let pool = RedisConnectionPool(options: server.connectionOptions(), capacity: 1, borrowTimeout: .milliseconds(100))
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: RedisError.self) {
            try pool.run { _ in
                try pool.run { try $0.ping() }
            }
        }
        #expect(error?.kind == .poolExhausted, "\(String(describing: error))")
        #expect(clock.now - start < .seconds(5))
        try pool.run { try $0.ping() }
    }

    /// A connection that breaks is dropped, not given to the next borrower.
    @Test func dropsABrokenConnection() throws {
        let pool = RedisConnectionPool(options: server.connectionOptions(commandTimeout: .milliseconds(100)), capacity: 2)
        #expect(throws: RedisError.self) {
            try pool.run { try $0.command([Data("BLPOP".utf8), Data("nothing".utf8), Data("2".utf8)]) }
        }
        #expect(pool.idleCount == 0)
        #expect(pool.tracker.liveCount == 0)
        try pool.run { try $0.ping() }
        #expect(pool.tracker.openedCount == 2)
    }

    /// The server dies and comes back on its port: calls fail with a typed error while it is down, without
    /// hanging, and the pool reconnects once it is back.
    @Test func reconnectsAfterTheServerRestarts() throws {
        let pool = RedisConnectionPool(options: server.connectionOptions(), capacity: 2)
        try pool.run { try $0.set("before", value: Data("1".utf8), timeToLive: nil) }
        #expect(pool.idleCount == 1)

        server.kill()
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: RedisError.self) { try pool.run { try $0.ping() } }
        #expect(error?.kind == .connectionRefused, "\(String(describing: error))")
        #expect(clock.now - start < .seconds(5))
        #expect(pool.tracker.liveCount == 0, "the dead connection is dropped")

        try server.restart()
        // The restarted server has no data (no persistence) but answers on the first call.
        #expect(try pool.run { try $0.get("before") } == nil)
        try pool.run { try $0.set("after", value: Data("2".utf8), timeToLive: nil) }
        #expect(try pool.run { try $0.get("after") } == Data("2".utf8))
        #expect(pool.tracker.liveCount == 1)
    }

    /// An idle connection the server closed while it waited is replaced on its next use, and the call succeeds.
    @Test func replacesAnIdleConnectionClosedByTheServer() throws {
        let pool = RedisConnectionPool(options: server.connectionOptions(), capacity: 1)
        try pool.run { try $0.ping() }
        let killer = try RedisConnection(options: server.connectionOptions())
        _ = try killer.command([Data("CLIENT".utf8), Data("KILL".utf8), Data("TYPE".utf8), Data("normal".utf8), Data("SKIPME".utf8), Data("yes".utf8)])
        try pool.run { try $0.ping() }
        #expect(pool.tracker.openedCount == 2)
        #expect(pool.tracker.liveCount == 1)
    }

    /// Every connection is freed with the pool.
    @Test func freesEveryConnectionWithThePool() throws {
        var pool: RedisConnectionPool? = RedisConnectionPool(options: server.connectionOptions(), capacity: 2)
        let tracker = try #require(pool?.tracker)
        try pool?.run { _ in
            try pool?.run { try $0.ping() }
        }
        #expect(tracker.liveCount == 2)
        pool = nil
        #expect(tracker.liveCount == 0)
    }
}

extension RedisConnectionPool {
    /// ``withConnection(_:)`` for a test's closures, whose errors Swift infers untyped: a ``RedisError`` passes
    /// through as it is.
    func run<T>(_ body: (RedisConnection) throws -> T) throws(RedisError) -> T {
        try withConnection { connection throws(RedisError) in
            do {
                return try body(connection)
            } catch let error as RedisError {
                throw error
            } catch {
                throw RedisError(.protocolError, "not a Redis error: \(error)")
            }
        }
    }
}
