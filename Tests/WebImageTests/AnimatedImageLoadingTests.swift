import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// Animations with frames on demand through the manager and the cache: `framesOnDemand`, `preloadAllFrames`,
/// `decodeFirstFrameOnly` and `matchAnimatedImageClass`.
@Suite struct AnimatedImageLoadingTests {
    private static let path = "/image/gif/anim.gif"

    private var onDemand: ImageContext {
        var context = ImageContext()
        context.framesOnDemand = true
        return context
    }

    /// Every frame of the fixture, decoded whole.
    private func eagerFrames() throws -> Image {
        try ImageCoderRegistry.makeDefault().decode(Fixtures.data("gif/anim.gif"))
    }

    @Test func framesOnDemandDeliversTheFirstFrameAndDecodesTheRestWhenAsked() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let eager = try eagerFrames()
            #expect(eager.frames.count > 2)
            let loaded = try await harness.load(server.url(Self.path), context: onDemand).get()
            let animation = try #require(loaded.image.animation)
            #expect(loaded.image.frames.count == 1)
            #expect(loaded.image.isAnimated)
            #expect(loaded.image.frameCount == eager.frames.count)
            #expect(loaded.image.loopCount == eager.loopCount)
            #expect(animation.framePool.frameCount == 1, "only the first frame is decoded")
            #expect(loaded.image.memoryCost == eager.frames[0].pixels.byteCount)
            for (index, frame) in eager.frames.enumerated() {
                #expect(try animation.frame(at: index) == frame.pixels, "frame \(index)")
                #expect(animation.duration(ofFrameAt: index) == frame.duration)
            }
            #expect(loaded.image.decodeOptions?.framesOnDemand == true)
        }
    }

    @Test func aLongAnimationStaysOneBitmapUntilItsFramesAreAskedFor() throws {
        let registry = ImageCoderRegistry.makeDefault()
        let frames = try (0..<500).map { index in
            ImageFrame(pixels: try PixelBuffer(width: 16, height: 16, color: RGBAColor(red: UInt8(index % 256), green: UInt8(index / 256), blue: 0)), duration: 0.02)
        }
        let data = try registry.encode(Image(frames: frames, hasAlpha: false), as: .gif)
        let image = try registry.decodeForLoad(data, options: ImageDecodeOptions(framesOnDemand: true))
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 500)
        #expect(animation.framePool.frameCount == 1)
        #expect(image.memoryCost == 16 * 16 * 4)
        #expect(try animation.frame(at: 321)[x: 3, y: 3] == RGBAColor(red: 65, green: 1, blue: 0))
        #expect(animation.framePool.frameCount == 1, "a frame asked for outside a player is not kept")
    }

    @Test func preloadAllFramesHoldsEveryFrameFromTheNetworkAndFromDisk() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let eager = try eagerFrames()
            let url = server.url(Self.path)
            let loaded = try await harness.load(url, options: [.preloadAllFrames, .waitStoreCache], context: onDemand).get()
            let animation = try #require(loaded.image.animation)
            #expect(animation.isAllFramesLoaded)
            #expect(loaded.image.memoryCost == eager.frames.count * eager.frames[0].pixels.byteCount)

            harness.cache.memoryCache.removeAll()
            let fromDisk = try await harness.load(url, options: .preloadAllFrames, context: onDemand).get()
            #expect(fromDisk.cacheType == .disk)
            #expect(fromDisk.image.animation?.isAllFramesLoaded == true)
        }
    }

    @Test func decodeFirstFrameOnlyWinsOverFramesOnDemand() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let loaded = try await harness.load(server.url(Self.path), options: .decodeFirstFrameOnly, context: onDemand).get()
            #expect(loaded.image.animation == nil)
            #expect(!loaded.image.isAnimated)
            #expect(loaded.image.pixels == (try eagerFrames().frames[0].pixels))
        }
    }

    @Test func matchAnimatedImageClassMissesAnImageDecodedTheOtherWay() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url(Self.path)
            let whole = try await harness.load(url, options: .waitStoreCache).get()
            #expect(whole.image.animation == nil)
            #expect(whole.image.frames.count > 1)

            // Without the option, the memory hit is handed out as it is.
            let hit = try await harness.load(url, context: onDemand).get()
            #expect(hit.cacheType == .memory)
            #expect(hit.image === whole.image)

            // With it, the hit counts as a miss and the disk data is decoded with frames on demand.
            let matched = try await harness.load(url, options: .matchAnimatedImageClass, context: onDemand).get()
            #expect(matched.cacheType == .disk)
            #expect(matched.image.animation != nil)
            #expect(server.requestCount(forPath: Self.path) == 1)

            // And now the memory holds the kind asked for.
            let again = try await harness.load(url, options: .matchAnimatedImageClass, context: onDemand).get()
            #expect(again.cacheType == .memory)
            #expect(again.image === matched.image)
        }
    }

    @Test func transformersAndEncodersSeeEveryFrame() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let eager = try eagerFrames()
            let transformer = FrameCountingTransformer()
            var context = onDemand
            context.imageTransformer = transformer
            let loaded = try await harness.load(server.url(Self.path), options: .transformAnimatedImage, context: context).get()
            #expect(transformer.seen == [eager.frames.count])
            #expect(loaded.image.frames.count == eager.frames.count)

            let plain = try await harness.load(server.url(Self.path + "?plain"), context: onDemand).get()
            let encoded = try ImageCoderRegistry.makeDefault().encode(plain.image, as: .gif)
            let decoded = try ImageCoderRegistry.makeDefault().decode(encoded)
            #expect(decoded.frames.count == eager.frames.count)
        }
    }

    @Test func aPlayerPlaysTheLoadedAnimation() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let eager = try eagerFrames()
            let loaded = try await harness.load(server.url(Self.path), context: onDemand).get()
            let clock = ManualAnimationClock()
            let player = try #require(AnimatedImagePlayer(image: loaded.image, clock: clock))
            let shown = Locked<[PixelBuffer]>([])
            player.frameHandler = { _, frame in shown.withLock { $0.append(frame) } }
            player.startPlaying()
            // Long ticks: one frame each, whatever the durations; wait for each prefetch so none is missed.
            for _ in 0..<(eager.frames.count * 3) {
                let index = player.currentFrameIndex
                _ = await waitUntil(timeout: .seconds(5)) { player.animation.framePool.contains(frameAt: index) }
                clock.advance(by: 10)
            }
            let frames = shown.withLock { $0 }
            #expect(frames.count >= eager.frames.count)
            for (position, frame) in frames.enumerated() {
                #expect(frame == eager.frames[position % eager.frames.count].pixels, "frame \(position)")
            }
        }
    }
}

/// Records how many frames each image it transforms holds, and keeps the image.
private final class FrameCountingTransformer: ImageTransforming {
    private let counts = Locked<[Int]>([])

    var seen: [Int] { counts.withLock { $0 } }
    var transformerKey: String { "FrameCountingTransformer" }

    func transform(image: Image, key: String) -> Image? {
        counts.withLock { $0.append(image.frames.count) }
        return image
    }
}
