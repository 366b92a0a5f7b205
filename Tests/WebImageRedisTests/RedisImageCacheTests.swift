import Foundation
import Glibc
import Testing
import WebImage
@testable import WebImageRedis

/// The Redis cache tier: bytes by key under a prefix, with a time to live and a size limit, its work off the
/// caller's thread, each completion once.
@Suite final class RedisImageCacheTests {
    let server: RedisTestServer

    init() throws {
        server = try RedisTestServer()
    }

    func makeCache(_ configure: (inout RedisImageCacheConfig) -> Void = { _ in }) -> RedisImageCache {
        server.makeCache(configure)
    }

    @Test func storesAndReadsBinaryBytes() async throws {
        let cache = makeCache()
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0xFF])
        #expect(try await cache.data(forKey: "https://example.com/a.png") == nil)
        #expect(try await cache.setData(bytes, forKey: "https://example.com/a.png") == .stored)
        #expect(try await cache.data(forKey: "https://example.com/a.png") == bytes)
        #expect(try await cache.removeData(forKey: "https://example.com/a.png"))
        #expect(try await cache.data(forKey: "https://example.com/a.png") == nil)
        #expect(try await !cache.removeData(forKey: "https://example.com/a.png"))
    }

    /// Entries are stored under the prefix, with the configured time to live.
    @Test func storesUnderThePrefixWithTheTimeToLive() async throws {
        let cache = makeCache {
            $0.keyPrefix = "thumbs:"
            $0.timeToLive = .seconds(90)
        }
        try await cache.setData(Data("v".utf8), forKey: "k")
        #expect(cache.redisKey(forKey: "k") == "thumbs:k")
        let connection = try RedisConnection(options: server.connectionOptions())
        #expect(try connection.get("thumbs:k") == Data("v".utf8))
        #expect(try connection.get("k") == nil)
        let left = try #require(try connection.timeToLive("thumbs:k"))
        #expect(left > 0 && left <= 90_000, "the configured 90 s, not the default")
    }

    /// Two caches with different prefixes on one server do not see each other's entries.
    @Test func prefixesSeparateCaches() async throws {
        let first = makeCache { $0.keyPrefix = "first:" }
        let second = makeCache { $0.keyPrefix = "second:" }
        try await first.setData(Data("1".utf8), forKey: "shared-key")
        #expect(try await second.data(forKey: "shared-key") == nil)
        try await second.setData(Data("2".utf8), forKey: "shared-key")
        #expect(try await first.data(forKey: "shared-key") == Data("1".utf8))
        #expect(try await second.data(forKey: "shared-key") == Data("2".utf8))
        try await second.removeData(forKey: "shared-key")
        #expect(try await first.data(forKey: "shared-key") == Data("1".utf8))
    }

    /// An entry is stored with the configured time to live, and is gone once it has passed (a bounded wait).
    @Test func entriesExpire() async throws {
        let cache = makeCache { $0.timeToLive = .milliseconds(800) }
        try await cache.setData(Data("soon gone".utf8), forKey: "k")
        let connection = try RedisConnection(options: server.connectionOptions())
        // nil once expired, on a slow machine; the wait below then proves that it expires at all.
        if let left = try connection.timeToLive(cache.redisKey(forKey: "k")) {
            #expect(left > 0 && left <= 800)
        }
        var attempts = 0
        while try await cache.data(forKey: "k") != nil, attempts < 150 {
            attempts += 1
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await cache.data(forKey: "k") == nil, "still there after \(attempts) checks")
    }

    /// Data over the maximum size is not sent to the server; data at the limit is.
    @Test func doesNotStoreDataOverTheLimit() async throws {
        let cache = makeCache { $0.maxObjectSize = 1000 }
        #expect(try await cache.setData(Data(count: 1001), forKey: "big") == .tooLarge)
        #expect(try await cache.setData(Data(count: 1000), forKey: "fits") == .stored)
        let connection = try RedisConnection(options: server.connectionOptions())
        #expect(try connection.get(cache.redisKey(forKey: "big")) == nil)
        #expect(try connection.get(cache.redisKey(forKey: "fits")) == Data(count: 1000))
        #expect(cache.pool.tracker.openedCount == 1, "only the stored entry went to the server")
    }

    /// The Redis work runs off the caller's thread, and each completion runs once.
    @Test func completesOnceOffTheCallersThread() async throws {
        let cache = makeCache()
        let caller = pthread_self()
        let calls = Locked(0)
        let onCaller = Locked(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.setData(Data("x".utf8), forKey: "k") { _ in
                calls.withLock { $0 += 1 }
                if pthread_equal(pthread_self(), caller) != 0 { onCaller.withLock { $0 += 1 } }
                continuation.resume()
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.withLock { $0 } == 1)
        #expect(onCaller.withLock { $0 } == 0)
    }

    /// Database and password reach the server: the cache reads what it stored, in its own database.
    @Test func usesTheConfiguredDatabaseAndPassword() async throws {
        let admin = try RedisConnection(options: server.connectionOptions())
        _ = try admin.command([Data("CONFIG".utf8), Data("SET".utf8), Data("requirepass".utf8), Data("pw".utf8)])
        let cache = makeCache {
            $0.database = 2
            $0.password = "pw"
        }
        try await cache.setData(Data("in two".utf8), forKey: "k")
        var options = server.connectionOptions()
        options.password = "pw"
        let other = try RedisConnection(options: options)
        #expect(try other.get(cache.redisKey(forKey: "k")) == nil, "database 0 does not hold it")
        _ = try other.command([Data("SELECT".utf8), Data("2".utf8)])
        #expect(try other.get(cache.redisKey(forKey: "k")) == Data("in two".utf8))
        #expect(try await cache.data(forKey: "k") == Data("in two".utf8))
    }

    /// AUTH as an ACL user, as a `redis://USER:PASSWORD@` URL gives it; a wrong password is the server's error.
    @Test func authenticatesAsAnACLUser() async throws {
        let admin = try RedisConnection(options: server.connectionOptions())
        _ = try admin.command(["ACL", "SETUSER", "images", "on", ">s3cret", "~*", "+@all"].map { Data($0.utf8) })
        let cache = makeCache {
            $0.username = "images"
            $0.password = "s3cret"
        }
        try await cache.setData(Data("as images".utf8), forKey: "k")
        #expect(try await cache.data(forKey: "k") == Data("as images".utf8))
        let refused = makeCache {
            $0.username = "images"
            $0.password = "wrong"
        }
        let error = await #expect(throws: WebImageError.self) { try await refused.data(forKey: "k") }
        #expect(error?.code == .badServerResponse, "\(String(describing: error))")
    }

    /// No server: every call fails with `cannotConnect`, naming the key, well before the long timeouts. The time
    /// is taken when the completions run, not when the test's task resumes, which a loaded machine delays; the
    /// bound leaves room for it still.
    @Test func failsQuicklyWithoutAServer() async throws {
        let port = try RedisTestServer.freePort()
        var config = RedisImageCacheConfig(host: "127.0.0.1", port: port)
        config.keyPrefix = "p:"
        config.connectTimeout = .seconds(300)
        config.commandTimeout = .seconds(300)
        let cache = RedisImageCache(config: config, coder: ImageCoderRegistry.shared)
        let clock = ContinuousClock()
        let start = clock.now
        let answered = Locked<ContinuousClock.Instant?>(nil)
        let error: WebImageError? = await withCheckedContinuation { continuation in
            cache.data(forKey: "k", callbackQueue: .inline) { result in
                answered.withLock { $0 = clock.now }
                if case .failure(let error) = result {
                    continuation.resume(returning: error)
                } else {
                    continuation.resume(returning: nil)
                }
            }
        }
        #expect(error?.code == .cannotConnect)
        #expect(error?.message.contains("p:k") == true, "\(String(describing: error))")
        await #expect(throws: WebImageError.self) { try await cache.setData(Data("x".utf8), forKey: "k") }
        let took = try #require(answered.withLock { $0 }) - start
        #expect(took < .seconds(120), "far below the 300 s timeouts: \(took)")
    }

    /// The server dies mid-run and comes back: calls fail while it is down, then work again on new connections.
    @Test func carriesOnAfterTheServerRestarts() async throws {
        let cache = makeCache()
        try await cache.setData(Data("1".utf8), forKey: "a")
        server.kill()
        let error = await #expect(throws: WebImageError.self) { try await cache.data(forKey: "a") }
        #expect(error?.code == .cannotConnect, "\(String(describing: error))")
        try server.restart()
        #expect(try await cache.data(forKey: "a") == nil)
        try await cache.setData(Data("2".utf8), forKey: "a")
        #expect(try await cache.data(forKey: "a") == Data("2".utf8))
    }

    /// A configuration printed to a log does not carry its password.
    @Test func describesTheConfigurationWithoutThePassword() {
        var config = RedisImageCacheConfig(host: "cache.internal", port: 6380)
        config.password = "hunter2-secret"
        let text = String(describing: config)
        #expect(!text.contains("hunter2-secret"))
        #expect(text.contains("cache.internal") && text.contains("6380") && text.contains("***"))
        #expect(!String(reflecting: config).contains("hunter2-secret"))
    }
}
