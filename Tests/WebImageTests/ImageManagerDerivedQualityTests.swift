import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// Thumbnails and transformed images are encoded for serving; originals keep their bytes.
@Suite struct ImageManagerDerivedQualityTests {
    private let photo = "jpeg/photo.jpg"

    @Test func thumbnailsAreStoredAtTheDerivedQualityAndOriginalsAsTheyCame() async throws {
        try await withTestHTTPServer { server in
            let url = server.url("/image/\(photo)")
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(width: 256, height: 192)
            let harness = ManagerHarness()
            _ = try await harness.load(url, options: .waitStoreCache, context: context).get()
            let key = harness.manager.cacheKey(for: url, context: context)
            let atDefault = try #require(harness.cache.diskData(forKey: key))
            var best = context
            best.encodeOptions = ImageEncodeOptions(quality: 1)
            let other = ManagerHarness()
            _ = try await other.load(url, options: .waitStoreCache, context: best).get()
            let atBest = try #require(other.cache.diskData(forKey: key))
            #expect(harness.manager.derivedImageQuality == 0.85)
            #expect(atDefault.count * 10 < atBest.count * 8, "\(atDefault.count) bytes at 0.85 against \(atBest.count) at 1")
            #expect(harness.cache.diskData(forKey: url.absoluteString) == Fixtures.data(photo))
        }
    }
}
