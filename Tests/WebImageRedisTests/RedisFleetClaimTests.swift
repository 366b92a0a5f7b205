import Foundation
import Testing
import WebImage
import WebImageTestSupport
@testable import WebImageRedis

/// One load per key across the fleet, with each cache object standing for a process: a miss claims the key, the
/// others wait for the holder's bytes, and every wait is bounded.
@Suite final class RedisFleetClaimTests {
    let server: RedisTestServer
    let bytes = Fixtures.data("jpeg/photo.jpg")

    init() throws {
        server = try RedisTestServer()
    }

    /// A cache standing for a process. Its claims and waits last ten minutes unless a test says otherwise: a
    /// loaded machine can stall a test for half a minute, and a claim must not expire before the test stores.
    /// The tests' bounds on what must be quick are two minutes, far below that.
    func makeProcess(_ configure: (inout RedisImageCacheConfig) -> Void = { _ in }) -> RedisImageCache {
        server.makeCache {
            $0.claimTimeToLive = .seconds(600)
            $0.maxFleetWait = .seconds(600)
            configure(&$0)
        }
    }

    /// Starts a look-up of `key` by `cache`; the box holds its answer once it has come.
    func lookUp(_ cache: RedisImageCache, _ key: String) -> Answer {
        let answer = Answer()
        let clock = ContinuousClock()
        let start = clock.now
        cache.diskData(forKey: key) { data in answer.set(data, after: clock.now - start) }
        return answer
    }

    /// A look-up's answer, with how long it took and when it came, both taken when its completion ran (a loaded
    /// machine may resume the test's task much later).
    final class Answer: Sendable {
        private let state = Locked<(data: Data?, took: Duration)?>(nil)
        private let answeredAt = Locked<ContinuousClock.Instant?>(nil)
        func set(_ data: Data?, after took: Duration) {
            answeredAt.withLock { $0 = ContinuousClock.now }
            state.withLock { $0 = (data, took) }
        }
        var value: (data: Data?, took: Duration)? { state.withLock { $0 } }
        var instant: ContinuousClock.Instant? { answeredAt.withLock { $0 } }
        func wait() async -> (data: Data?, took: Duration)? {
            _ = await waitUntil(timeout: .seconds(30)) { [self] in value != nil }
            return value
        }
    }

    @Test func theFirstMissClaimsAndTheOthersGetItsBytes() async throws {
        let holder = makeProcess()
        let others = (0..<3).map { _ in makeProcess() }
        #expect(await holder.diskData(forKey: "k") == nil, "the first miss claims the key and loads")
        let waiting = others.map { lookUp($0, "k") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(waiting.allSatisfy { $0.value == nil }, "they wait for the holder")
        try await holder.store(nil, data: bytes, key: "k", cacheType: .disk)
        for answer in waiting {
            #expect(await answer.wait()?.data == bytes)
        }
        #expect(try holder.connectionForTests().exists(holder.claimKey(forKey: "k")) == false, "the store released the claim")
    }

    @Test func aProcessDoesNotWaitOnItsOwnClaim() async throws {
        let holder = makeProcess()
        #expect(await holder.diskData(forKey: "k") == nil)
        let again = await lookUp(holder, "k").wait()
        #expect(again?.data == nil)
        #expect(try #require(again).took < .seconds(120))
    }

    @Test func theWaitIsBounded() async throws {
        let holder = makeProcess { $0.claimTimeToLive = .seconds(600) }
        let waiter = makeProcess { $0.maxFleetWait = .milliseconds(300) }
        #expect(await holder.diskData(forKey: "k") == nil)
        let answer = try #require(await lookUp(waiter, "k").wait())
        #expect(answer.data == nil, "it loads for itself")
        #expect(answer.took >= .milliseconds(250))
        #expect(answer.took < .seconds(120))
    }

    /// A holder that vanished (a crash) costs at most the claim's time to live: the first waiter to see the
    /// claim gone takes it over and loads; the others keep waiting, now on it.
    @Test func aVanishedHolderCostsAtMostTheClaimsLifetime() async throws {
        let crashed = makeProcess { $0.claimTimeToLive = .milliseconds(500) }
        let first = makeProcess()
        let second = makeProcess()
        let claimed = ContinuousClock.now
        #expect(await crashed.diskData(forKey: "k") == nil)
        let firstAnswer = lookUp(first, "k")
        let secondAnswer = lookUp(second, "k")
        _ = try #require(await waitForOne(of: [firstAnswer, secondAnswer]))
        let answeredAt = try #require([firstAnswer, secondAnswer].compactMap(\.instant).min())
        let waited = answeredAt - claimed
        #expect(waited >= .milliseconds(450) && waited < .seconds(120), "the claim's lifetime, not the 600 s wait: \(waited)")
        // Whichever took the claim over stores; the other one gets its bytes.
        let (newHolder, other) = firstAnswer.value != nil ? (first, secondAnswer) : (second, firstAnswer)
        #expect(other.value == nil, "exactly one took the claim over")
        try await newHolder.store(nil, data: bytes, key: "k", cacheType: .disk)
        #expect(await other.wait()?.data == bytes)
    }

    private func waitForOne(of answers: [Answer]) async -> (data: Data?, took: Duration)? {
        _ = await waitUntil(timeout: .seconds(30)) { answers.contains { $0.value != nil } }
        return answers.lazy.compactMap(\.value).first
    }

    /// A holder whose load ends without storing passes the claim: the waiters load at once, not at its expiry.
    @Test func aLoadThatStoresNothingLetsTheWaitersGo() async throws {
        let holder = makeProcess { $0.claimTimeToLive = .seconds(600) }
        let waiter = makeProcess { $0.maxFleetWait = .seconds(600) }
        #expect(await holder.diskData(forKey: "k") == nil)
        let answer = lookUp(waiter, "k")
        try await Task.sleep(for: .milliseconds(100))
        holder.loadEnded(forKey: "k")
        let answered = try #require(await answer.wait())
        #expect(answered.data == nil && answered.took < .seconds(120))
        // The pass stands for the claim's lifetime: a later miss loads at once too.
        let later = try #require(await lookUp(makeProcess { $0.maxFleetWait = .seconds(600) }, "k").wait())
        #expect(later.took < .seconds(120))
    }

    /// A load cancelled while its claim was being asked for passes the claim once it arrives.
    @Test func aCancelledQueryPassesTheClaimItGetsLater() async throws {
        let holder = makeProcess { $0.claimTimeToLive = .seconds(600) }
        holder.query(key: "k", options: [], context: ImageContext(), cacheType: .all) { _ in }.cancel()
        holder.loadEnded(forKey: "k")
        let answer = try #require(await lookUp(makeProcess { $0.maxFleetWait = .seconds(600) }, "k").wait())
        #expect(answer.took < .seconds(120), "not the claim's 600 s")
    }

    /// Two misses of one key in one process at once: the second neither claims nor waits on the first's claim.
    @Test func overlappingMissesInOneProcessDoNotWaitOnEachOther() async throws {
        let cache = makeProcess { $0.maxFleetWait = .seconds(600) }
        let first = lookUp(cache, "k")
        let second = lookUp(cache, "k")
        let answers = [await first.wait(), await second.wait()]
        #expect(answers.allSatisfy { $0 != nil && $0!.took < .seconds(120) })
    }

    /// The claim belongs to every load of the process that looked the key up: one of them ending leaves it to the
    /// others, and the store releases it.
    @Test func theClaimStaysUntilTheLastLoadEnds() async throws {
        let holder = makeProcess { $0.claimTimeToLive = .seconds(600) }
        #expect(await holder.diskData(forKey: "k") == nil, "the first load claims")
        #expect(await holder.diskData(forKey: "k") == nil, "the second reads")
        holder.loadEnded(forKey: "k")
        let waiter = lookUp(makeProcess { $0.maxFleetWait = .seconds(600) }, "k")
        try await Task.sleep(for: .milliseconds(200))
        #expect(waiter.value == nil, "the claim still holds")
        try await holder.store(nil, data: bytes, key: "k", cacheType: .disk)
        #expect(await waiter.wait()?.data == bytes)
    }

    /// A store the server refuses (full, with noeviction) deletes the claim: the waiters load at once.
    @Test func aFailedStoreLetsTheWaitersGo() async throws {
        let holder = makeProcess { $0.claimTimeToLive = .seconds(600) }
        #expect(await holder.diskData(forKey: "k") == nil)
        let admin = try holder.connectionForTests()
        _ = try admin.command(["CONFIG", "SET", "maxmemory-policy", "noeviction"].map { Data($0.utf8) })
        _ = try admin.command(["CONFIG", "SET", "maxmemory", "1"].map { Data($0.utf8) })
        let waiter = lookUp(makeProcess { $0.maxFleetWait = .seconds(600) }, "k")
        try await Task.sleep(for: .milliseconds(100))
        try await holder.store(nil, data: bytes, key: "k", cacheType: .disk)
        let answer = try #require(await waiter.wait())
        #expect(answer.data == nil && answer.took < .seconds(120))
    }

    @Test func aCacheOnlyQueryDoesNotClaim() async throws {
        let cache = makeProcess()
        _ = try? await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ImageCacheQueryResult, any Error>) in
            cache.query(key: "k", options: [.fromCacheOnly], context: ImageContext(), cacheType: .all) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
        #expect(try cache.connectionForTests().exists(cache.claimKey(forKey: "k")) == false)
    }

    /// Bytes over the size limit cannot be shared: the holder passes its claim.
    @Test func tooLargeForTheServerLetsTheWaitersGo() async throws {
        let holder = makeProcess {
            $0.claimTimeToLive = .seconds(600)
            $0.maxObjectSize = 100
        }
        let waiter = makeProcess { $0.maxFleetWait = .seconds(600) }
        #expect(await holder.diskData(forKey: "k") == nil)
        let answer = lookUp(waiter, "k")
        try await holder.store(nil, data: bytes, key: "k", cacheType: .disk)
        let answered = try #require(await answer.wait())
        #expect(answered.data == nil && answered.took < .seconds(120))
    }

    /// A query whose load stores nothing on disk does not claim: it would hold the others back for nothing.
    @Test func aQueryThatWillNotStoreDoesNotClaim() async throws {
        let cache = makeProcess()
        var context = ImageContext()
        context.storeCacheType = .memory
        _ = try await cache.query(key: "k", context: context, cacheType: .all)
        #expect(try cache.connectionForTests().exists(cache.claimKey(forKey: "k")) == false)
        _ = try await cache.query(key: "k", cacheType: .all)
        #expect(try cache.connectionForTests().exists(cache.claimKey(forKey: "k")) == true)
    }

    @Test func withoutTheSingleFlightNothingIsClaimed() async throws {
        let cache = makeProcess { $0.usesFleetSingleFlight = false }
        #expect(await cache.diskData(forKey: "k") == nil)
        #expect(try cache.connectionForTests().exists(cache.claimKey(forKey: "k")) == false)
    }
}
