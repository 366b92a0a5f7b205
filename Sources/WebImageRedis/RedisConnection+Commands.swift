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
            arguments.append(RedisConnection.millisecondsArgument(timeToLive))
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

    /// EVAL: runs `script` on the server with `keys` and `arguments`, atomically, and returns its reply.
    package func evaluate(_ script: String, keys: [String], arguments: [Data]) throws(RedisError) -> RedisReply {
        var command = [Data("EVAL".utf8), Data(script.utf8), Data(String(keys.count).utf8)]
        command += keys.map { Data($0.utf8) }
        command += arguments
        return try self.command(command)
    }

    /// EXISTS: whether `key` exists.
    package func exists(_ key: String) throws(RedisError) -> Bool {
        switch try command([Data("EXISTS".utf8), Data(key.utf8)]) {
        case .integer(let count): return count > 0
        case let other: throw RedisConnection.unexpected(other, for: "EXISTS")
        }
    }

    /// SCAN: one step of a walk over the keys that match `pattern`; returns the next cursor ("0" once the walk
    /// is over) and the keys of this step, which may repeat keys of earlier steps.
    package func scan(cursor: String, matching pattern: String, count: Int) throws(RedisError) -> (cursor: String, keys: [String]) {
        let reply = try command([
            Data("SCAN".utf8), Data(cursor.utf8), Data("MATCH".utf8), Data(pattern.utf8), Data("COUNT".utf8), Data(String(count).utf8),
        ])
        guard case .array(let parts) = reply, parts.count == 2, case .bulk(let next) = parts[0], case .array(let found) = parts[1] else {
            throw RedisConnection.unexpected(reply, for: "SCAN")
        }
        var keys: [String] = []
        for element in found {
            guard case .bulk(let key) = element else { throw RedisConnection.unexpected(reply, for: "SCAN") }
            keys.append(String(decoding: key, as: UTF8.self))
        }
        return (String(decoding: next, as: UTF8.self), keys)
    }

    /// UNLINK: removes `keys` (the server frees their memory in the background); returns how many existed.
    @discardableResult
    package func unlink(_ keys: [String]) throws(RedisError) -> Int {
        guard !keys.isEmpty else { return 0 }
        switch try command([Data("UNLINK".utf8)] + keys.map { Data($0.utf8) }) {
        case .integer(let count): return Int(count)
        case let other: throw RedisConnection.unexpected(other, for: "UNLINK")
        }
    }

    /// `text` as a SCAN pattern that matches it literally: the glob characters escaped.
    package static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "*?[]\\^-".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// PING: checks that the server answers.
    package func ping() throws(RedisError) {
        switch try command([Data("PING".utf8)]) {
        case .status("PONG"): return
        case let other: throw RedisConnection.unexpected(other, for: "PING")
        }
    }

    /// `duration` in whole milliseconds (at least 1), as a command argument: what PX takes.
    static func millisecondsArgument(_ duration: Duration) -> Data {
        Data(String(wholeMilliseconds(duration)).utf8)
    }

    /// `duration` in whole milliseconds, at least 1.
    static func wholeMilliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int64.max / 2 }
        return max(1, total.partialValue + attoseconds / 1_000_000_000_000_000)
    }

    static func unexpected(_ reply: RedisReply, for command: String) -> RedisError {
        RedisError(.protocolError, "unexpected reply to \(command): \(reply)")
    }
}
