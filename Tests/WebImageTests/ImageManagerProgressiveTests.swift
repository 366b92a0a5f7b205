import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// Progressive loads through the manager: partial results of growing quality while the body trickles in from
/// the loopback server, then the final image once, equal to a one-shot decode, and nothing partial stored.
@Suite struct ImageManagerProgressiveTests {
    /// A harness whose downloader decodes partial images whenever data arrives.
    /// A harness whose downloader decodes partial images every `interval` seconds; `patient` gives it timeouts
    /// longer than any wait of the tests, for a transfer a test holds open on purpose.
    private func harness(interval: Double = 0, patient: Bool = false) -> ManagerHarness {
        var config = ImageDownloaderConfig()
        config.progressiveDecodeInterval = interval
        if patient {
            config.stallTimeout = 120
            config.downloadTimeout = 120
        }
        // An executor of its own: partial decodes that queued behind the decodes of every other suite running
        // at the same time would come after the whole body, and the test would see none.
        return ManagerHarness(downloaderConfig: config, executor: BoundedExecutor(width: 2))
    }

    /// The mean absolute difference of two buffers' bytes (RGBA), out of 255.
    private func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size)
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x: x, y: y], q = b[x: x, y: y]
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green))
                    + abs(Int(p.blue) - Int(q.blue)) + abs(Int(p.alpha) - Int(q.alpha))
            }
        }
        return Double(total) / Double(a.width * a.height * 4)
    }

    /// The partial images of `results` in order, and the final result; records an issue when a partial comes
    /// after the final one.
    private func split(_ results: [Result<ImageLoadResult, WebImageError>]) throws -> (partials: [Image], final: ImageLoadResult) {
        let finalIndex = try #require(results.firstIndex { if case .success(let loaded) = $0 { loaded.isFinal } else { true } })
        #expect(finalIndex == results.count - 1, "nothing comes after the final result")
        let partials = results[..<finalIndex].compactMap { result -> Image? in
            guard case .success(let loaded) = result, loaded.outcome == .partial else { return nil }
            #expect(loaded.image.isIncremental)
            #expect(loaded.cacheType == ImageCacheType.none)
            return loaded.image
        }
        return (partials, try results[finalIndex].get())
    }

    /// Loads `url`, whose body `stepped` holds at each cut, and releases each part once a partial image of the
    /// parts before it has come (however slow the machine, one comes first); returns the partial images and the
    /// final result.
    private func loadStepping(
        _ harness: ManagerHarness, _ url: URL, body stepped: TestHTTPSteppedBody,
        options: ImageOptions, context: ImageContext = ImageContext()
    ) async throws -> (partials: [Image], final: ImageLoadResult) {
        let received = Locked<[Result<ImageLoadResult, WebImageError>]>([])
        harness.manager.loadImage(url: url, options: options, context: context) { result in
            received.withLock { $0.append(result) }
        }
        var seen = 0
        for step in 0..<stepped.steps {
            let before = seen
            #expect(
                await waitUntil(timeout: .seconds(60)) { received.withLock { $0.count > before } },
                "a partial image of the body before part \(step + 2) of \(url.path) came"
            )
            // Counted before the next part goes out, so that its partial image is the one the next step waits for.
            seen = received.withLock { $0.count }
            stepped.release()
        }
        let isFinal: @Sendable (Result<ImageLoadResult, WebImageError>) -> Bool = {
            if case .success(let loaded) = $0 { loaded.isFinal } else { true }
        }
        #expect(await waitUntil(timeout: .seconds(60)) { received.withLock { $0.contains(where: isFinal) } })
        return try split(received.withLock { $0 })
    }

    @Test(arguments: [
        "jpeg/photo-progressive.jpg",   // a whole frame after each scan, sharper each time
        "jpeg/photo.jpg",               // baseline: rows as they arrive
        "png/photo-crop-interlaced.png", // Adam7 passes, coarse to fine
        "png/photo-crop.png",           // rows as they arrive
        "webp/photo.webp",              // rows as they arrive
    ])
    func stillImagesArriveAtGrowingQualityThenWhole(fixture: String) async throws {
        try await withTestHTTPServer { server in
            // The body in five parts, each sent once a partial image of the ones before has come. Every part brings
            // something new for each fixture: WebP shows its first rows at 28 % of its body, and the progressive
            // JPEG's scans complete at 12, 27, 40, 57, 65 and 72 % (its last scan shows only at the end).
            let harness = harness(patient: true)
            let stepped = TestHTTPSteppedBody(on: server, prefix: "/stepped/", cuts: [0.3, 0.45, 0.6, 0.75])
            let url = server.url("/stepped/\(fixture)?length=1")
            let (partials, final) = try await loadStepping(harness, url, body: stepped, options: [.progressiveLoad, .waitStoreCache])
            let whole = try ImageCoderRegistry.makeDefault().decode(Fixtures.data(fixture))
            #expect(final.outcome == .loaded)
            #expect(!final.image.isIncremental)
            #expect(final.image.pixels == whole.pixels, "the final image is the one-shot decode")

            // Distinct partials, each closer to the final image than the one before. Rows and Adam7 passes only add
            // detail. A progressive JPEG's partials show the coefficients received so far, and libjpeg smooths the
            // blocks whose coefficients have not come yet; when a scan starts, it stops smoothing the coefficients
            // that scan will bring, so the image just after a scan boundary can be farther from the final one than
            // the image just before it (up to 1.29 times for this fixture, measured over every 16-byte prefix).
            // There quality grows from the first partial to the last, by steps of less than 1.35 times back.
            var distinct: [Image] = []
            for partial in partials where distinct.last.map({ $0.pixels != partial.pixels }) ?? true {
                #expect(partial.pixelSize == whole.pixelSize)
                distinct.append(partial)
            }
            #expect(distinct.count >= 3, "\(fixture): \(partials.count) partial results, \(distinct.count) distinct")
            let differences = distinct.map { meanDifference($0.pixels, whole.pixels) }
            let stepBack = fixture.hasSuffix("-progressive.jpg") ? 1.35 : 1.0
            for (earlier, later) in zip(differences, differences.dropFirst()) {
                #expect(later < earlier * stepBack, "\(fixture): quality grows \(differences)")
            }
            if let first = differences.first, let last = differences.last {
                #expect(last < first, "\(fixture): quality grows \(differences)")
            }

            // Only the whole image is kept: the original bytes on disk, the final image in memory.
            #expect(await harness.cache.diskCache.data(forKey: url.absoluteString) == Fixtures.data(fixture))
            #expect(harness.manager.cachedImage(for: url) === final.image)
        }
    }

    /// Cuts of `gif/anim.gif` (225 bytes; its four frames end at bytes 83, 130, 177 and 224) just after its first
    /// three frames: a partial image of one, two, then three frames.
    private static let gifFrameCuts = [0.4, 0.61, 0.82]

    @Test func gifFramesArriveAsTheyComplete() async throws {
        try await withTestHTTPServer { server in
            let harness = harness(patient: true)
            let fixture = "gif/anim.gif"
            let data = Fixtures.data(fixture)
            let stepped = TestHTTPSteppedBody(on: server, prefix: "/stepped/", cuts: Self.gifFrameCuts)
            let url = server.url("/stepped/\(fixture)?length=1")
            let (partials, final) = try await loadStepping(harness, url, body: stepped, options: .progressiveLoad)
            let whole = try ImageCoderRegistry.makeDefault().decode(data)
            #expect(final.image.frames.count == whole.frames.count)
            #expect(partials.count >= 2)
            let counts = partials.map(\.frames.count)
            #expect(counts == counts.sorted(), "frame counts only grow: \(counts)")
            #expect((counts.last ?? 0) > (counts.first ?? 0), "\(counts)")
            for partial in partials {
                for (index, frame) in partial.frames.enumerated() {
                    #expect(frame.pixels == whole.frames[index].pixels, "frame \(index) of a partial image is final")
                }
            }
        }
    }

    /// SDWebImage's progressive `SDAnimatedImage`: with frames on demand, partial images of an animation are
    /// animations whose frame count grows, their frames those of the final image. Each fixture is cut just after
    /// its first three frames: the WebP (238 bytes) has four frames ending at bytes 92, 140, 188 and 238; the APNG
    /// (475 bytes) four whose data ends at bytes 157, 246, 335 and 423, each whole once the next chunk's header
    /// has come.
    @Test(arguments: [
        ("gif/anim.gif", gifFrameCuts),
        ("webp/anim-img2webp.webp", [0.4, 0.6, 0.8]),
        ("png/apng-apngasm.png", [0.36, 0.55, 0.74]),
    ])
    func partialAnimationsWithFramesOnDemandGrowFrameByFrame(fixture: String, cuts: [Double]) async throws {
        try await withTestHTTPServer { server in
            let harness = harness(patient: true)
            let data = Fixtures.data(fixture)
            let stepped = TestHTTPSteppedBody(on: server, prefix: "/stepped/", cuts: cuts)
            let url = server.url("/stepped/\(fixture)?length=1")
            var context = ImageContext()
            context.framesOnDemand = true
            let (partials, final) = try await loadStepping(harness, url, body: stepped, options: .progressiveLoad, context: context)
            let whole = try ImageCoderRegistry.makeDefault().decode(data)
            #expect(final.image.animation != nil, "the final image has frames on demand")
            let animated = partials.filter { $0.frameCount > 1 }
            #expect(!animated.isEmpty, "\(partials.map(\.frameCount))")
            for partial in animated {
                let animation = try #require(partial.animation, "a partial of \(partial.frameCount) frames is an animation")
                #expect(partial.frames.count == 1, "the first frame held, the rest on demand")
                #expect(partial.isIncremental)
                for index in 0..<animation.frameCount {
                    #expect(try animation.frame(at: index) == whole.frames[index].pixels, "frame \(index)")
                    #expect(animation.duration(ofFrameAt: index) == whole.frames[index].duration)
                }
            }
            let counts = partials.map(\.frameCount)
            #expect(counts == counts.sorted(), "frame counts only grow: \(counts)")
            #expect(counts.count >= 2 && counts.last! > counts.first!, "\(fixture): \(counts)")
        }
    }

    @Test func partialImagesAreTransformedLikeTheFinalOne() async throws {
        try await withTestHTTPServer { server in
            let harness = harness(patient: true)
            let half = TestHTTPSteppedBody(on: server)
            let transformer = PaintTransformer()
            var context = ImageContext()
            context.imageTransformer = transformer
            let url = server.url("/half/jpeg/photo-progressive.jpg?length=1")
            let (partials, final) = try await loadStepping(harness, url, body: half, options: .progressiveLoad, context: context)
            #expect(!partials.isEmpty)
            for partial in partials { #expect(partial.pixels[x: 5, y: 5] == .red) }
            #expect(final.image.pixels[x: 5, y: 5] == .red)
            // Each delivered image was transformed once; a partial decoded as the rest of the body came may have
            // been transformed and then dropped for the final image.
            #expect((partials.count + 1...partials.count + 2).contains(transformer.calls), "\(transformer.calls) calls")
        }
    }

    @Test func theIntervalThrottlesPartialDecodes() async throws {
        try await withTestHTTPServer { server in
            let harness = harness(interval: 60)
            let url = server.url("/trickle/png/photo-crop-interlaced.png?parts=16&interval_ms=20&length=1")
            let results = await harness.results(url, options: .progressiveLoad)
            let (partials, final) = try split(results)
            #expect(partials.count <= 1, "one partial decode at most in a minute")
            #expect(final.image.pixels == (try ImageCoderRegistry.makeDefault().decode(Fixtures.data("png/photo-crop-interlaced.png")).pixels))
        }
    }

    @Test func cancellingStopsThePartialImages() async throws {
        try await withTestHTTPServer { server in
            // Half the body, then nothing until released: the load cannot finish before it is cancelled (the
            // timeouts outlast the test, however slowly a loaded machine makes the first partial image).
            let harness = harness(patient: true)
            let half = TestHTTPSteppedBody(on: server)
            let url = server.url("/half/jpeg/photo-progressive.jpg?length=1")
            let received = Locked<[Result<ImageLoadResult, WebImageError>]>([])
            let operation = harness.manager.loadImage(url: url, options: .progressiveLoad) { result in
                received.withLock { $0.append(result) }
            }
            #expect(await waitUntil(timeout: .seconds(60)) { received.withLock { !$0.isEmpty } }, "a partial image came")
            let first = try #require(received.withLock { $0.first })
            #expect((try? first.get())?.outcome == .partial, "the first result is a partial image, not \(first)")
            operation.cancel()
            let isCancelled: @Sendable (Result<ImageLoadResult, WebImageError>) -> Bool = {
                if case .failure(let error) = $0 { error.code == .cancelled } else { false }
            }
            #expect(await waitUntil(timeout: .seconds(20)) { received.withLock { $0.contains(where: isCancelled) } })
            half.release()
            try await Task.sleep(for: .milliseconds(300))
            let all = received.withLock { $0 }
            let finals = all.filter { if case .success(let loaded) = $0 { loaded.isFinal } else { true } }
            #expect(finals.count == 1)
            #expect(all.last.map(isCancelled) == true, "nothing after the cancellation")
            #expect(all.dropLast().allSatisfy { (try? $0.get())?.outcome == .partial })
        }
    }

    /// A 400 x 400 opaque PNG of noise, which zlib cannot shrink: half the body holds about half the rows. Small,
    /// as its partial decodes share the decode executor with every other suite.
    private static func noisePNG() throws -> [UInt8] {
        let pixels = try PixelBuffer(width: 400, height: 400) { bytes in
            var random = SplitMix64(seed: 7)
            let words = bytes.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = random.next() | 0xFF00_0000_FF00_0000 }
        }
        return Array(try ImageCoderRegistry.makeDefault().encode(Image(pixels: pixels, hasAlpha: false), as: .png))
    }

    /// SDWebImage decodes the partial images of a scaled-down load at the scaled-down size, as it does the final one.
    @Test(arguments: [nil, 160_000] as [Int?])
    func scaledDownLoadsStillGetPartialImages(limitBytes: Int?) async throws {
        try await withTestHTTPServer { server in
            let harness = harness(patient: true)
            let half = TestHTTPSteppedBody(on: server, path: "/noise.png", body: try Self.noisePNG(), contentType: "image/png")
            var context = ImageContext()
            context.scaleDownLimitBytes = limitBytes
            let source = PixelSize(width: 400, height: 400)
            let expected = limitBytes.map { source.scaled(toLimitBytes: $0) } ?? source
            #expect(limitBytes == nil || expected.width < source.width)
            let (partials, final) = try await loadStepping(
                harness, server.url("/noise.png"), body: half, options: [.progressiveLoad, .scaleDownLargeImages], context: context
            )
            #expect(!partials.isEmpty)
            for partial in partials { #expect(partial.pixelSize == expected) }
            #expect(final.image.pixelSize == expected)
        }
    }

    @Test func theAsyncStreamYieldsPartialImagesOnceEach() async throws {
        try await withTestHTTPServer { server in
            // Half the body, held until the stream has yielded a partial image (or, so that the test ends, 60 s).
            let harness = harness(patient: true)
            let half = TestHTTPSteppedBody(on: server)
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) { half.release() }
            let url = server.url("/half/png/photo-crop-interlaced.png?length=1")
            var partials = 0
            var results: [ImageLoadResult] = []
            for try await event in harness.manager.imageLoadEvents(url: url, options: .progressiveLoad) {
                switch event {
                case .partialImage(let image):
                    #expect(image.isIncremental)
                    partials += 1
                    half.release()
                case .result(let result): results.append(result)
                case .progress: break
                }
            }
            #expect(partials >= 1)
            #expect(results.count == 1)
            #expect(results.first?.outcome == .loaded)
        }
    }
}
