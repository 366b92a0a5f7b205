import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// ``ImageCaches`` as a chain of tiers: look-ups through every cache, and hits in a lower tier filling the ones
/// above.
@Suite final class ImageCachesTiersTests {
    let root: URL
    let coder = MockCoder(magic: "TIER", format: .png)
    let upper: ImageCache
    let lower: ImageCache

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("caches-tiers-\(UUID().uuidString)")
        upper = ImageCache(namespace: "upper", root: root, coder: coder)
        lower = ImageCache(namespace: "lower", root: root, coder: coder)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func store(_ data: Data, in cache: ImageCache, key: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            cache.store(nil, data: data, key: key, options: [], context: ImageContext(), cacheType: .disk) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    private func diskData(_ cache: any ImageCaching, key: String) async -> Data? {
        await withCheckedContinuation { continuation in
            cache.diskData(forKey: key) { continuation.resume(returning: $0) }
        }
    }

    private func query(_ cache: any ImageCaching, key: String, context: ImageContext) async throws -> ImageCacheQueryResult {
        try await withCheckedThrowingContinuation { continuation in
            cache.query(key: key, options: [], context: context, cacheType: .all) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    /// Whether the upper tier's disk holds `bytes` under `k`, within 10 s.
    private func upperDiskHolds(_ bytes: Data) async -> Bool {
        let disk = upper.diskCache
        return await waitUntil(timeout: .seconds(10)) {
            let stored: Data? = disk.data(forKey: "k")
            return stored == bytes
        }
    }

    @Test func tiersWriteThroughAndFillFromBelow() {
        let caches = ImageCaches(tiers: [upper, lower])
        #expect(caches.storePolicy == .concurrent)
        #expect(caches.queryPolicy == .serial)
        #expect(caches.fillsHigherCaches)
        #expect(!ImageCaches([upper, lower]).fillsHigherCaches, "SDWebImage's composite fills nothing")
    }

    /// The data load's look-up finds bytes in the lower tier, and writes them to the disk tier above.
    @Test func diskDataFromALowerTierFillsTheUpperDisk() async throws {
        let bytes = Data("TIER-bytes".utf8)
        try await store(bytes, in: lower, key: "k")
        let caches = ImageCaches(tiers: [upper, lower])
        #expect(await diskData(caches, key: "k") == bytes)
        #expect(await upperDiskHolds(bytes))
        #expect(await diskData(caches, key: "missing") == nil)
    }

    /// Without the fill, the composite still answers from the lower tier and leaves the upper one alone.
    @Test func withoutFillTheUpperTierStaysEmpty() async throws {
        let bytes = Data("TIER-alone".utf8)
        try await store(bytes, in: lower, key: "k")
        let caches = ImageCaches([upper, lower])
        #expect(await diskData(caches, key: "k") == bytes)
        try await Task.sleep(for: .milliseconds(50))
        #expect(await upper.diskCache.data(forKey: "k") == nil)
    }

    /// A query answered by the lower tier puts the image in the upper tier's memory and its bytes on its disk.
    @Test func queryHitInALowerTierFillsMemoryAndDiskAbove() async throws {
        let bytes = Data("TIER-image".utf8)
        try await store(bytes, in: lower, key: "k")
        let caches = ImageCaches(tiers: [upper, lower])
        let found = try await query(caches, key: "k", context: ImageContext())
        #expect(found.image != nil)
        #expect(found.cacheType == .disk)
        #expect(await upperDiskHolds(bytes))
        #expect(upper.memoryImage(forKey: "k", options: [], framesOnDemand: false) != nil)
        #expect(caches.memoryImage(forKey: "k", options: [], framesOnDemand: false) != nil)
    }

    /// The fill follows the context's store type: a load that keeps nothing in memory fills no memory tier.
    @Test func theFillFollowsTheStoreType() async throws {
        let bytes = Data("TIER-disk-only".utf8)
        try await store(bytes, in: lower, key: "k")
        let caches = ImageCaches(tiers: [upper, lower])
        var context = ImageContext()
        context.storeCacheType = .disk
        _ = try await query(caches, key: "k", context: context)
        #expect(await upperDiskHolds(bytes))
        #expect(upper.memoryImage(forKey: "k", options: [], framesOnDemand: false) == nil)
    }

    /// A full-size entry decoded to a thumbnail fills the disk above, never its memory under the full key.
    @Test func aThumbnailDecodedBelowFillsNoMemoryAbove() async throws {
        let bytes = Data("TIER-full".utf8)
        try await store(bytes, in: lower, key: "k")
        let caches = ImageCaches(tiers: [upper, lower])
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 4)
        let found = try await query(caches, key: "k", context: context)
        #expect(found.image?.pixelSize == PixelSize(width: 4, height: 4))
        #expect(await upperDiskHolds(bytes))
        #expect(upper.memoryImage(forKey: "k", options: [], framesOnDemand: false) == nil)
    }

    /// The validators and the end of a load reach the caches behind the first.
    @Test func validatorsAndLoadEndsGoToEveryTier() async {
        let first = MockImageCache(looksUpMemoryDuringCall: true)
        let second = MockImageCache(looksUpMemoryDuringCall: true)
        let caches = ImageCaches(tiers: [first, second])
        let revalidation = ImageRevalidation(entityTag: "\"v1\"")
        await withCheckedContinuation { continuation in
            caches.setRevalidation(revalidation, forKey: "k") { continuation.resume() }
        }
        #expect(first.revalidation(forKey: "k") == revalidation && second.revalidation(forKey: "k") == revalidation)
        #expect(caches.revalidation(forKey: "k") == revalidation)
        caches.loadEnded(forKey: "k")
        #expect(first.endedKeys == ["k"] && second.endedKeys == ["k"])
    }
}
