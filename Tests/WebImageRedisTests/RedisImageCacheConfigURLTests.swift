import Testing
import WebImageCore
import WebImageRedis

/// `redis://` URLs as the tool and the example server take them.
@Suite struct RedisImageCacheConfigURLTests {
    @Test func readsHostPortDatabaseAndPassword() throws {
        let config = try RedisImageCacheConfig(url: "redis://:s%40cret@cache.internal:6380/2")
        #expect(config.host == "cache.internal")
        #expect(config.port == 6380)
        #expect(config.database == 2)
        #expect(config.password == "s@cret")
        #expect(!config.description.contains("s@cret"), "the password is masked when printed")
    }

    /// The user information is decoded once: a password may hold a percent sign, and an ACL user is kept.
    @Test func readsAnACLUserAndAPasswordWithAPercentSign() throws {
        let config = try RedisImageCacheConfig(url: "redis://images:p%2541ss@cache.internal")
        #expect(config.username == "images")
        #expect(config.password == "p%41ss")
        #expect(try RedisImageCacheConfig(url: "redis://:secret@cache.internal").username == nil)
    }

    @Test func defaultsThePortAndDatabase() throws {
        let config = try RedisImageCacheConfig(url: "redis://127.0.0.1")
        #expect(config.port == 6379 && config.database == 0 && config.password == nil)
        #expect(try RedisImageCacheConfig(url: "redis://127.0.0.1:7000/").database == 0)
    }

    @Test(arguments: ["http://127.0.0.1:6379", "redis://", "redis://host/db", "redis://host/-1", "redis://host:0", "redis://host:99999", "not a url"])
    func refusesWhatItCannotUse(_ url: String) {
        #expect(throws: WebImageError.self) { try RedisImageCacheConfig(url: url) }
    }
}
