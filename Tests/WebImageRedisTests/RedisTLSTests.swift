import Foundation
import Testing
import WebImage
import WebImageTestSupport
@testable import WebImageRedis

/// The tier over TLS, against a redis-server that listens for TLS only and presents the test certificate.
@Suite final class RedisTLSTests {
    let server: RedisTestServer

    init() throws {
        server = try RedisTestServer(tls: true)
    }

    func makeCache(_ configure: (inout RedisImageCacheConfig) -> Void = { _ in }) -> RedisImageCache {
        server.makeCache(configure)
    }

    @Test func storesAndReadsOverTLS() async throws {
        let cache = makeCache()
        let photo = Fixtures.data("jpeg/photo.jpg")
        try await cache.store(nil, data: photo, key: "photo", cacheType: .disk)
        let found = try await cache.query(key: "photo", cacheType: .all)
        #expect(found.image?.pixelSize == PixelSize(width: 320, height: 240))
        // Larger than one TLS record and than the session thread's buffer, both ways.
        let large = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await cache.setData(large, forKey: "large")
        #expect(try await cache.data(forKey: "large") == large)
    }

    @Test func commandsRunOnEveryConnectionOfThePoolAtOnce() async throws {
        let cache = makeCache { $0.poolSize = 4 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let value = Data("value \(index)".utf8)
                    try await cache.setData(value, forKey: "k\(index)")
                    #expect(try await cache.data(forKey: "k\(index)") == value)
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aServerTheSystemDoesNotTrustFailsWithTLSFailure() async throws {
        let cache = makeCache { $0.tls = RedisTLSOptions() }
        let error = await #expect(throws: WebImageError.self) { try await cache.data(forKey: "k") }
        #expect(error?.code == .tlsFailure, "\(String(describing: error))")
        #expect(error?.message.contains("verify") == true)
    }

    @Test func theNameIsChecked() async throws {
        let cache = makeCache { $0.tls?.serverName = "cache.example.com" }
        let error = await #expect(throws: WebImageError.self) { try await cache.data(forKey: "k") }
        #expect(error?.code == .tlsFailure, "\(String(describing: error))")
        let byName = makeCache { $0.tls?.serverName = "localhost" }
        try await byName.setData(Data("named".utf8), forKey: "k")
        #expect(try await byName.data(forKey: "k") == Data("named".utf8))
    }

    @Test func withoutVerificationAnyCertificateIsTaken() async throws {
        var options = RedisTLSOptions()
        options.verifiesCertificate = false
        let cache = makeCache { $0.tls = options }
        try await cache.setData(Data("unverified".utf8), forKey: "k")
        #expect(try await cache.data(forKey: "k") == Data("unverified".utf8))
    }

    /// A plain client on the TLS port gets no answer it can read: the connection fails, it does not hang.
    @Test func aPlainClientOnTheTLSPortFails() async throws {
        let cache = makeCache { $0.tls = nil }
        await #expect(throws: WebImageError.self) { try await cache.data(forKey: "k") }
    }

    @Test func theSessionSurvivesAServerRestart() async throws {
        let cache = makeCache()
        try await cache.setData(Data("1".utf8), forKey: "a")
        try server.restart()
        _ = try? await cache.data(forKey: "a")
        try await cache.setData(Data("2".utf8), forKey: "a")
        #expect(try await cache.data(forKey: "a") == Data("2".utf8))
    }

    @Test func rediss() throws {
        let config = try RedisImageCacheConfig(url: "rediss://cache.internal:6380/1")
        #expect(config.tls == RedisTLSOptions())
        #expect(config.port == 6380 && config.database == 1)
        #expect(try RedisImageCacheConfig(url: "redis://cache.internal").tls == nil)
    }
}
