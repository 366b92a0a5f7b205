import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Progressive loads: partial images while the body arrives, then the whole image.
@Suite struct ImageDownloaderProgressiveTests {
    @Test(arguments: ["", "?length=1"])
    func partialImagesArriveBeforeTheWholeOne(query: String) async throws {
        try await withTestHTTPServer { server in
            // The first half of the body, then nothing until the test has seen a partial image.
            let half = TestHTTPSteppedBody(on: server)
            // Timeouts that outlast the test: the transfer is held open until the test has seen a partial image.
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let partials = Locked<[Image]>([])
            let final = Locked<Result<DownloadedImage, WebImageError>?>(nil)
            let token = downloader.downloadImage(
                url: server.url("/half/webp/photo.webp" + query),
                options: .progressiveLoad,
                progress: { progress in
                    if let image = progress.partialImage { partials.withLock { $0.append(image) } }
                },
                completion: { result in final.withLock { $0 = result } }
            )
            #expect(await waitUntil(timeout: .seconds(30)) { !partials.withLock { $0.isEmpty } }, "a partial image from half the body")
            #expect(half.isHolding)
            half.release()
            #expect(await waitUntil(timeout: .seconds(30)) { final.withLock { $0 != nil } })
            let image = try #require(try final.withLock { $0 }?.get().image)
            #expect(!image.isIncremental)
            let first = try #require(partials.withLock { $0.first })
            #expect(first.isIncremental, "made from half the body")
            #expect(first.pixelSize == image.pixelSize)
            #expect(token.isFinished)
        }
    }

    @Test func withoutTheOptionNoPartialImagesCome() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let partials = Locked(0)
            let done = Locked(false)
            downloader.downloadImage(
                url: server.url("/trickle/webp/photo.webp"),
                progress: { progress in if progress.partialImage != nil { partials.withLock { $0 += 1 } } },
                completion: { _ in done.withLock { $0 = true } }
            )
            #expect(await waitUntil(timeout: .seconds(30)) { done.withLock { $0 } })
            #expect(partials.withLock { $0 } == 0)
        }
    }
}
