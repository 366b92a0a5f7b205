import Foundation
import Testing
import WebImage
import WebImageTestSupport
@testable import WebImageCore

/// The metadata SDWebImage carries on its images: `sd_isTransformed`, `sd_extendedObject` (archived with the disk
/// entry and restored on a disk hit) and custom decode options handed through the context to the coder.
@Suite final class ImageMetadataTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-metadata-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeCache() -> ImageCache {
        ImageCache(namespace: "metadata", root: directory, coder: ImageCoderRegistry.makeDefault())
    }

    private static func query(_ cache: ImageCache, _ key: String, context: ImageContext = ImageContext()) async throws -> ImageCacheQueryResult {
        let result: Result<ImageCacheQueryResult, WebImageError> = await withCheckedContinuation { continuation in
            cache.query(key: key, context: context) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    private static func store(_ cache: ImageCache, _ image: Image?, data: Data?, key: String) async throws {
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            cache.store(image, data: data, key: key) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    @Test func theExtendedObjectGoesToDiskAndComesBackOnADiskHit() async throws {
        let cache = makeCache()
        let object = Data(#"{"caption":"a red square","id":42}"#.utf8)
        let image = Image(pixels: try PixelBuffer(width: 8, height: 8, color: .red), hasAlpha: false).withExtendedObject(object)
        #expect(image.extendedObject == object)

        // Encoded for the disk (no data given), and with data given: the object goes with both.
        try await Self.store(cache, image, data: nil, key: "encoded")
        try await Self.store(cache, image, data: Fixtures.data("png/rgb8.png"), key: "verbatim")
        cache.memoryCache.removeAll()
        for key in ["encoded", "verbatim"] {
            let hit = try await Self.query(cache, key)
            #expect(hit.cacheType == .disk)
            #expect(hit.image?.extendedObject == object, "\(key)")
            #expect(cache.imageFromDisk(forKey: key)?.extendedObject == object, "\(key), read synchronously")
        }

        // The validators share the entry's extended data: setting them keeps the object, and the reverse.
        await withCheckedContinuation { continuation in
            cache.setRevalidation(ImageRevalidation(entityTag: "\"v1\""), forKey: "encoded") { continuation.resume() }
        }
        #expect(cache.revalidation(forKey: "encoded")?.entityTag == "\"v1\"")
        cache.memoryCache.removeAll()
        #expect(try await Self.query(cache, "encoded").image?.extendedObject == object)

        // An image stored without an object has none on its disk hit, and a new store drops the old object.
        try await Self.store(cache, image.withExtendedObject(nil), data: nil, key: "encoded")
        cache.memoryCache.removeAll()
        let plain = try await Self.query(cache, "encoded")
        #expect(plain.image != nil)
        #expect(plain.image?.extendedObject == nil)
    }

    @Test func anEntryWithOnlyValidatorsHasNoExtendedObject() async throws {
        let cache = makeCache()
        try await Self.store(cache, nil, data: Fixtures.data("png/rgb8.png"), key: "validated")
        await withCheckedContinuation { continuation in
            cache.setRevalidation(ImageRevalidation(entityTag: "\"e\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"), forKey: "validated") {
                continuation.resume()
            }
        }
        let hit = try await Self.query(cache, "validated")
        #expect(hit.image != nil)
        #expect(hit.image?.extendedObject == nil)
        #expect(cache.revalidation(forKey: "validated")?.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    @Test func transformedImagesAreMarkedAndKeepTheSourcesObject() throws {
        let object = Data("kept".utf8)
        let source = Image(pixels: try PixelBuffer(width: 8, height: 8, color: .red), hasAlpha: false).withExtendedObject(object)
        #expect(!source.isTransformed)
        let made = try #require(MockTransformer(width: 4).transform(image: source, key: "k"))
        let marked = made.markedTransformed(from: source)
        #expect(marked.isTransformed)
        #expect(marked.extendedObject == object)
        #expect(marked.pixels === made.pixels, "marking shares the pixels")
        // A transformer's own object wins over the source's.
        let own = made.withExtendedObject(Data("own".utf8)).markedTransformed(from: source)
        #expect(own.extendedObject == Data("own".utf8))
    }

    @Test func theManagerMarksWhatATransformerMade() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            var context = ImageContext()
            context.imageTransformer = MockTransformer(width: 4)
            let transformed = try await harness.load(server.url("/image/png/rgb8.png"), context: context).get()
            #expect(transformed.image.isTransformed)
            let plain = try await harness.load(server.url("/image/png/rgba8.png")).get()
            #expect(!plain.image.isTransformed)
            // The transformed image comes back from memory marked, as it was stored.
            let again = try await harness.load(server.url("/image/png/rgb8.png"), context: context).get()
            #expect(again.cacheType == .memory)
            #expect(again.image.isTransformed)
        }
    }

    /// A coder that decodes with the registry and records the custom options it was handed.
    private final class RecordingCoder: ImageCoding, Sendable {
        let registry = ImageCoderRegistry.makeDefault()
        let seen = Locked<[[String: ImageCoderOptionValue]]>([])
        func canDecode(_ data: Data) -> Bool { registry.canDecode(data) }
        func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
            seen.withLock { $0.append(options.custom) }
            return try registry.decode(data, options: options)
        }
        func canEncode(to format: ImageFormat) -> Bool { registry.canEncode(to: format) }
        func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
            try registry.encode(image, as: format, options: options)
        }
    }

    @Test func customDecodeOptionsReachTheCoderThroughTheContext() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let coder = RecordingCoder()
            var decodeOptions = ImageDecodeOptions()
            decodeOptions.custom = ["tone": .string("warm"), "level": .int(3)]
            var context = ImageContext()
            context.imageCoder = coder
            context.decodeOptions = decodeOptions
            let url = server.url("/image/png/rgb8.png")
            let loaded = try await harness.load(url, context: context).get()
            #expect(coder.seen.withLock { $0 } == [decodeOptions.custom], "the network decode saw them")
            #expect(loaded.image.decodeOptions?.custom == decodeOptions.custom, "and they stay on the image")

            // A disk hit decodes with them too.
            harness.cache.memoryCache.removeAll()
            let fromDisk = try await harness.load(url, context: context).get()
            #expect(fromDisk.cacheType == .disk)
            #expect(coder.seen.withLock { $0.count } == 2)
            #expect(coder.seen.withLock { $0.last } == decodeOptions.custom)
        }
    }
}
