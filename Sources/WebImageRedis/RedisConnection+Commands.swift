#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The commands the cache tier sends, with their replies checked and typed.
extension RedisConnection {
    /// GET: the bytes stored under `key`, or nil when there are none.
    package func get(_ key: String) throws(RedisError) -> Data? {
        switch try command([Data("GET".utf8), Data(key.utf8)]) {
        case .bulk(let data): return data
        case .null: return nil
        case let other: throw RedisConnection.unexpected(other, for: "GET")
        }
    }

    /// SET, with PX when `timeToLive` is given: stores `value` under `key`, replacing what was there, to expire
    /// after `timeToLive` (whole milliseconds, at least 1).
    package func set(_ key: String, value: Data, timeToLive: Duration?) throws(RedisError) {
        var arguments = [Data("SET".utf8), Data(key.utf8), value]
        if let timeToLive {
            arguments.append(Data("PX".utf8))
            arguments.append(Data(String(RedisConnection.wholeMilliseconds(timeToLive)).utf8))
        }
        switch try command(arguments) {
        case .status("OK"): return
        case let other: throw RedisConnection.unexpected(other, for: "SET")
        }
    }

    /// DEL: removes `key`; returns whether it existed.
    @discardableResult
    package func delete(_ key: String) throws(RedisError) -> Bool {
        switch try command([Data("DEL".utf8), Data(key.utf8)]) {
        case .integer(let count): return count > 0
        case let other: throw RedisConnection.unexpected(other, for: "DEL")
        }
    }

    /// PTTL: the milliseconds `key` has left; nil when it does not exist or does not expire.
    package func timeToLive(_ key: String) throws(RedisError) -> Int64? {
        switch try command([Data("PTTL".utf8), Data(key.utf8)]) {
        case .integer(let milliseconds): return milliseconds >= 0 ? milliseconds : nil
        case let other: throw RedisConnection.unexpected(other, for: "PTTL")
        }
    }

    /// PING: checks that the server answers.
    package func ping() throws(RedisError) {
        switch try command([Data("PING".utf8)]) {
        case .status("PONG"): return
        case let other: throw RedisConnection.unexpected(other, for: "PING")
        }
    }

    /// `duration` in whole milliseconds, at least 1.
    static func wholeMilliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int64.max / 2 }
        return max(1, total.partialValue + attoseconds / 1_000_000_000_000_000)
    }

    private static func unexpected(_ reply: RedisReply, for command: String) -> RedisError {
        RedisError(.protocolError, "unexpected reply to \(command): \(reply)")
    }
}
