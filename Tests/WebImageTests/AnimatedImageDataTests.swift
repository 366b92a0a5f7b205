import Foundation
import Testing
import WebImage
import WebImageCore
import WebImageTestSupport

/// An animation's original bytes through the cache, and ``AnimatedImage`` over data no coder animates, with the
/// default coders.
@Suite final class AnimatedImageDataTests {
    let directory: URL
    let registry = ImageCoderRegistry.makeDefault()
    let cache: ImageCache

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("animated-data-\(UUID().uuidString)")
        cache = ImageCache(namespace: "animated", root: directory, coder: registry)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test(arguments: ["webp/anim-img2webp.webp", "gif/anim.gif"])
    func anAnimationStoredWithoutDataKeepsItsOriginalBytes(fixture: String) async throws {
        let original = Fixtures.data(fixture)
        let image = try registry.decodeForLoad(original, options: ImageDecodeOptions(framesOnDemand: true))
        #expect(image.animation != nil)
        let stored: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            cache.store(image, data: nil, key: fixture, cacheType: .disk) { continuation.resume(returning: $0) }
        }
        try stored.get()
        #expect(cache.diskData(forKey: fixture) == original, "the bytes are stored as they came, not encoded again")
        var onDemand = ImageContext()
        onDemand.framesOnDemand = true
        let found = try #require(cache.imageFromCache(forKey: fixture, context: onDemand), "read back from disk")
        #expect(found.frameCount == image.frameCount)
    }

    @Test func staticDataMakesAStillAnimatedImage() throws {
        let data = Fixtures.data("jpeg/photo.jpg")
        let animated = try #require(try AnimatedImage(data: data, coder: registry))
        let decoded = try registry.decode(data)
        #expect(!animated.isAnimated)
        #expect(animated.frameCount == 1)
        #expect(animated.loopCount == 0)
        #expect(animated.format == .jpeg)
        #expect(animated.frameSize == decoded.pixelSize)
        #expect(animated.data == data)
        #expect(try animated.frame(at: 0) == decoded.pixels)
        #expect(animated.duration(ofFrameAt: 0) == 0)
        #expect(throws: WebImageError.self) { try animated.frame(at: 1) }
        #expect(try animated.makeImage().isAnimated == false)
    }

    @Test func animatedDataStillMakesAnAnimation() throws {
        let data = Fixtures.data("gif/anim.gif")
        let animated = try #require(try AnimatedImage(data: data, coder: registry))
        #expect(animated.isAnimated)
        #expect(animated.frameCount > 1)
        #expect(animated.format == .gif)
    }

    @Test func emptyOrUnknownDataMakesNone() throws {
        #expect(try AnimatedImage(data: Data(), coder: registry) == nil)
        #expect(try AnimatedImage(data: Data("not an image at all".utf8), coder: registry) == nil)
    }

    /// Loads decode static data as before: an ordinary image, with no animation behind it and one decode.
    @Test func framesOnDemandLeavesStaticDataAnOrdinaryImage() throws {
        let data = Fixtures.data("jpeg/photo.jpg")
        let image = try registry.decodeForLoad(data, options: ImageDecodeOptions(framesOnDemand: true))
        #expect(image.animation == nil)
        #expect(!image.isAnimated)
        #expect(image.format == .jpeg)
    }
}
