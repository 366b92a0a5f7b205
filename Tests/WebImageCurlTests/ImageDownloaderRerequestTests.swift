import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// A cell that is reused cancels its load and asks for the same URL again: the new request must not join the
/// transfer its cancel is tearing down.
@Suite struct ImageDownloaderRerequestTests {
    @Test func anImageRequestAfterTheLastCancelGetsANewTransfer() async throws {
        try await withTestHTTPServer { server in
            let gate = ImageGate(server: server)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/gated/jpeg/photo.jpg")
            let first = Locked<Result<DownloadedImage, WebImageError>?>(nil)
            let token = downloader.downloadImage(url: url) { result in first.withLock { $0 = result } }
            #expect(await waitUntil(timeout: .seconds(30)) { gate.waitingCount == 1 })
            token.cancel()
            let second = Locked<Result<DownloadedImage, WebImageError>?>(nil)
            downloader.downloadImage(url: url) { result in second.withLock { $0 = result } }
            #expect(await waitUntil(timeout: .seconds(30)) { server.requestCount(forPath: "/gated/jpeg/photo.jpg") == 2 })
            gate.open()
            #expect(await waitUntil(timeout: .seconds(30)) { second.withLock { $0 != nil } })
            #expect((try? second.withLock { $0 }?.get().image.pixelSize) == PixelSize(width: 320, height: 240))
            #expect(await waitUntil(timeout: .seconds(30)) { first.withLock { $0 != nil } })
            #expect(first.withLock { $0 }?.failureCode == .cancelled)
        }
    }

    @Test func aDataRequestAfterTheLastCancelGetsANewTransfer() async throws {
        try await withTestHTTPServer { server in
            let gate = ImageGate(server: server)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/gated/png/gray8.png")
            let token = downloader.downloadData(url: url) { _ in }
            #expect(await waitUntil(timeout: .seconds(30)) { gate.waitingCount == 1 })
            token.cancel()
            let second = Locked<Result<DownloadedImageData, WebImageError>?>(nil)
            downloader.downloadData(url: url) { result in second.withLock { $0 = result } }
            gate.open()
            #expect(await waitUntil(timeout: .seconds(30)) { second.withLock { $0 != nil } })
            let body = try #require(try second.withLock { $0 }?.get())
            #expect(body.data == Fixtures.data("png/gray8.png"))
        }
    }

    /// Many rounds of cancel and ask again, each on a transfer just started: every second request succeeds.
    @Test func cancelAndAskAgainInARow() async throws {
        try await withTestHTTPServer { server in
            registerSlowImage(on: server, delay: 50)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/slow/png/gray8.png")
            for round in 0..<20 {
                let token = downloader.downloadData(url: url) { _ in }
                token.cancel()
                let result = await awaitResult(timeout: 30) { completion in
                    downloader.downloadData(url: url, completion: completion)
                }
                #expect((try? result.get().data.count) == Fixtures.data("png/gray8.png").count, "round \(round)")
            }
        }
    }
}
