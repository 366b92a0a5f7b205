import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// `loadImageData`: the encoded bytes of a variant, from the encoded memory tier, the disk or the network, through
/// a real cache, downloader and coders over a loopback server.
@Suite struct ImageManagerDataTests {
    private let photo = "jpeg/photo.jpg"

    private func loadData(
        _ harness: ManagerHarness, _ url: URL, options: ImageOptions = [], context: ImageContext = ImageContext()
    ) async throws(WebImageError) -> ImageDataResult {
        try await harness.manager.loadImageData(url: url, options: options, context: context)
    }

    @Test func theOriginalIsItsBytesAsTheyCameFromTheNetworkThenMemoryThenDisk() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/\(photo)")
            let first = try await loadData(harness, url, options: .waitStoreCache)
            #expect(first.data == Fixtures.data(photo), "byte-exact")
            #expect(first.cacheType == .none)
            #expect(first.format == .jpeg && first.pixelSize == PixelSize(width: 320, height: 240))
            #expect(first.key == url.absoluteString)

            let second = try await loadData(harness, url)
            #expect(second.cacheType == .memory && second.data == first.data)

            harness.manager.encodedMemoryCache.removeAll()
            let third = try await loadData(harness, url)
            #expect(third.cacheType == .disk && third.data == first.data)
            #expect(server.requestCount(forPath: "/image/\(photo)") == 1)
            #expect(harness.manager.encodedMemoryCache.statistics.hits == 1)
        }
    }

    @Test func aThumbnailIsMadeOnceStoredUnderItsKeyAndServedFromDiskWithoutDecoding() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/\(photo)")
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(square: 64)
            let made = try await loadData(harness, url, options: .waitStoreCache, context: context)
            #expect(made.cacheType == .none)
            #expect(made.format == .jpeg)
            #expect(made.pixelSize.width <= 64 && made.pixelSize.height <= 64)
            #expect(made.key == harness.manager.cacheKey(for: url, context: context), "the image's thumbnail key")
            let decoded = try ImageCoderRegistry.shared.decode(made.data)
            #expect(decoded.pixelSize == made.pixelSize)
            #expect(harness.cache.diskData(forKey: url.absoluteString) == Fixtures.data(photo), "the original is kept")

            harness.manager.encodedMemoryCache.removeAll()
            let again = try await loadData(harness, url, context: context)
            #expect(again.cacheType == .disk && again.data == made.data)
            #expect(server.requestCount(forPath: "/image/\(photo)") == 1)

            // A load of the same thumbnail finds the bytes the data path stored.
            let image = try await harness.load(url, context: context).get()
            #expect(image.cacheType == .disk && image.image.pixelSize == made.pixelSize)
        }
    }

    @Test func aRequestedFormatIsEncodedOnceAndItsKeyNamesIt() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/\(photo)")
            var context = ImageContext()
            context.encodedFormat = .webp
            let webp = try await loadData(harness, url, context: context)
            #expect(webp.format == .webp)
            #expect(webp.data.starts(with: Data("RIFF".utf8)))
            #expect(webp.pixelSize == PixelSize(width: 320, height: 240))
            #expect(webp.key != url.absoluteString && webp.key.contains("Encoded(webp,q85)"))
            // The original in its own format is its bytes as they came, whatever the encoding asked for.
            context.encodedFormat = .jpeg
            let jpeg = try await loadData(harness, url, context: context)
            #expect(jpeg.data == Fixtures.data(photo))
            #expect(server.requestCount(forPath: "/image/\(photo)") == 1)

            // Warm, each encoding is its own memory hit under its own key.
            context.encodedFormat = .webp
            let webpAgain = try await loadData(harness, url, context: context)
            #expect(webpAgain.cacheType == .memory && webpAgain.key == webp.key && webpAgain.data == webp.data)
            context.encodedFormat = .jpeg
            let jpegAgain = try await loadData(harness, url, context: context)
            #expect(jpegAgain.cacheType == .memory && jpegAgain.key == jpeg.key && jpegAgain.data == jpeg.data)
            context.encodeOptions = ImageEncodeOptions(quality: 0.5)
            let lower = try await loadData(harness, url, context: context)
            #expect(lower.cacheType == .none && lower.key != jpeg.key, "another quality is another variant")
        }
    }

    @Test func concurrentCallsShareOneLoadAndOneEncodeAndACancelLeavesTheOthersTheirResult() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/trickle/\(photo)?parts=3&interval_ms=100")
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(square: 32)
            let results = Locked<[Int: [Result<ImageDataResult, WebImageError>]]>([:])
            var operations: [ImageDataOperation] = []
            for caller in 0..<6 {
                operations.append(harness.manager.loadImageData(url: url, context: context) { result in
                    results.withLock { $0[caller, default: []].append(result) }
                })
            }
            operations[0].cancel()
            operations[0].cancel()
            #expect(await waitUntil(timeout: .seconds(20)) { results.withLock { $0.count } == 6 })
            try await Task.sleep(for: .milliseconds(50))
            let all = results.withLock { $0 }
            #expect(all.values.allSatisfy { $0.count == 1 }, "each call completes once")
            #expect(all[0]?.first?.failureCode == .cancelled)
            let bytes = try (1..<6).map { try #require(all[$0]?.first).get().data }
            #expect(Set(bytes).count == 1, "one encoding for all")
            #expect(server.requestCount(forPath: "/trickle/\(photo)") == 1)
        }
    }

    @Test func failuresAreTypedAndTheFailedListApplies() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            await #expect(throws: WebImageError.self) { try await harness.manager.loadImageData(url: nil) }
            let missing = server.url("/status/404")
            do throws(WebImageError) {
                _ = try await loadData(harness, missing)
                Issue.record("a 404 succeeded")
            } catch {
                #expect(error.code == .invalidDownloadStatusCode)
            }
            var fromCache = ImageContext()
            fromCache.thumbnailPixelSize = PixelSize(square: 8)
            do throws(WebImageError) {
                _ = try await loadData(harness, server.url("/image/\(photo)"), options: .fromCacheOnly, context: fromCache)
                Issue.record("fromCacheOnly loaded")
            } catch {
                #expect(error.code == .notInCache)
            }
        }
    }
}
