import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// A store that fails (here: the cache's directory is a file, which no write can get past, even as root) is
/// reported: on the result of a load that waits for its stores, and as an event of the manager in every case.
@Suite final class ImageManagerStoreFailureTests {
    let root: URL
    let manager: ImageManager
    let url: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("store-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // The namespace's directory is taken by a file.
        try Data("not a directory".utf8).write(to: root.appendingPathComponent("broken"))
        let registry = ImageCoderRegistry.makeDefault()
        let cache = ImageCache(namespace: "broken", root: root, coder: registry)
        manager = ImageManager(cache: cache, loader: DataURLImageLoader(coder: registry))
        let png = Fixtures.data("png/rgb8.png").base64EncodedString()
        url = try #require(URL(string: "data:image/png;base64,\(png)"))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func load(options: ImageOptions, context: ImageContext = ImageContext()) async throws -> ImageLoadResult {
        try await manager.loadImage(url: url, options: options, context: context)
    }

    /// The first `count` events of `stream`, or fewer when 10 s pass first.
    private func first(_ count: Int, of stream: AsyncStream<ImageManagerEvent>) async -> [ImageStoreFailure] {
        await withTaskGroup(of: [ImageStoreFailure]?.self) { group in
            group.addTask {
                var failures: [ImageStoreFailure] = []
                for await event in stream {
                    if case .storeFailed(let failure) = event { failures.append(failure) }
                    if failures.count == count { break }
                }
                return failures
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }

    @Test func aLoadThatWaitsForItsStoresSaysThatTheDiskWriteFailed() async throws {
        let events = manager.events()
        let loaded = try await load(options: [.waitStoreCache])
        #expect(loaded.image.pixelSize == PixelSize(width: 64, height: 48))
        let error = try #require(loaded.storeError)
        #expect(error.code == .diskIO)
        #expect(error.message.contains(root.appendingPathComponent("broken").path))

        let failures = await first(1, of: events)
        #expect(failures.count == 1)
        #expect(failures.first?.key == url.absoluteString)
        #expect(failures.first?.error.code == .diskIO)
        #expect(failures.first?.cacheType == .all)
    }

    @Test func aLoadThatDoesNotWaitStillReportsTheFailureAsAnEvent() async throws {
        let events = manager.events()
        let loaded = try await load(options: [])
        #expect(loaded.storeError == nil, "it was delivered before the store ended")
        let failures = await first(1, of: events)
        #expect(failures.first?.error.code == .diskIO)
        #expect(failures.first?.url == url)
    }

    @Test func aThumbnailReportsBothOfItsStores() async throws {
        let events = manager.events()
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 8)
        let loaded = try await load(options: [.waitStoreCache], context: context)
        #expect(loaded.storeError?.code == .diskIO)
        // The original under the URL's key, and the thumbnail under its own.
        let failures = await first(2, of: events)
        #expect(Set(failures.map(\.key)) == [url.absoluteString, manager.cacheKey(for: url, context: context)])
    }

    @Test func everyOpenStreamGetsTheEventWhenAnotherHasEnded() async throws {
        let one = manager.events()
        let two = manager.events()
        let three = manager.events()
        // Ended by its reader: the others still get every event.
        let ended = Task { for await _ in three {} }
        ended.cancel()
        await ended.value
        _ = try await load(options: [.waitStoreCache])
        #expect(await first(1, of: one).count == 1)
        #expect(await first(1, of: two).count == 1)
    }

    @Test func aWorkingCacheReportsNoStoreError() async throws {
        let registry = ImageCoderRegistry.makeDefault()
        let cache = ImageCache(namespace: "working", root: root, coder: registry)
        let working = ImageManager(cache: cache, loader: DataURLImageLoader(coder: registry))
        let loaded = try await working.loadImage(url: url, options: [.waitStoreCache])
        #expect(loaded.storeError == nil)
        #expect(cache.diskCache.containsData(forKey: url.absoluteString))
    }
}
