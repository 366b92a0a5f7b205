import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// ImageCache with the real coders: disk hits decoded by the registry, thumbnails from full-size entries,
/// images stored without data encoded in the right format.
@Suite final class ImageCacheEndToEndTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-e2e-\(UUID().uuidString)")
    let cache: ImageCache

    init() {
        var config = ImageCacheConfig()
        config.maxMemoryCost = 64 << 20
        cache = ImageCache(namespace: "e2e", root: directory, config: config, coder: ImageCoderRegistry.makeDefault())
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func query(_ key: String, context: ImageContext = ImageContext()) async throws -> ImageCacheQueryResult {
        let result: Result<ImageCacheQueryResult, WebImageError> = await withCheckedContinuation { continuation in
            cache.query(key: key, context: context) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    private func store(_ image: Image?, data: Data?, key: String) async throws {
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            cache.store(image, data: data, key: key) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    @Test func jpegThumbnailFromAFullSizeDiskEntry() async throws {
        let key = "https://example.com/photo.jpg"
        try await store(nil, data: Fixtures.data("jpeg/photo.jpg"), key: key)
        #expect(cache.diskCache.path(forKey: key).hasSuffix(".jpg"))
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(width: 40, height: 30)
        let thumb = try await query(key, context: context)
        #expect(thumb.cacheType == .disk)
        #expect(thumb.image?.pixelSize == PixelSize(width: 40, height: 30))
        let full = try await query(key)
        #expect(full.image?.pixelSize == PixelSize(width: 320, height: 240))
        // Both now answer from memory, each under its own key.
        #expect(try await query(key).cacheType == .memory)
        #expect(try await query(key, context: context).image?.pixelSize == PixelSize(width: 40, height: 30))
    }

    @Test func storedImagesAreEncodedByContent() async throws {
        let opaque = try ImageCoderRegistry.shared.decode(Fixtures.data("jpeg/quad-444.jpg"))
        let alpha = try ImageCoderRegistry.shared.decode(Fixtures.data("source/quad-alpha.png"))
        let animated = try ImageCoderRegistry.shared.decode(Fixtures.data("gif/anim-loop3.gif"))
        try await store(opaque, data: nil, key: "opaque")
        try await store(alpha, data: nil, key: "alpha")
        try await store(animated, data: nil, key: "animated")
        #expect(ImageFormat.detect(try #require(cache.diskData(forKey: "opaque"))) == .jpeg)
        #expect(ImageFormat.detect(try #require(cache.diskData(forKey: "alpha"))) == .png)
        #expect(ImageFormat.detect(try #require(cache.diskData(forKey: "animated"))) == .gif)
        // From disk, the animation keeps its frames.
        cache.memoryCache.removeAll()
        let back = try await query("animated")
        #expect(back.cacheType == .disk)
        #expect(back.image?.frames.count == animated.frames.count)
        #expect(back.image?.loopCount == 3)
    }

    @Test func scaleComesFromTheKey() async throws {
        try await store(nil, data: Fixtures.data("png/rgb8.png"), key: "https://example.com/icon@2x.png")
        let found = try await query("https://example.com/icon@2x.png")
        #expect(found.image?.scale == 2)
    }
}
