import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Waits for a data download's completion, with a time limit.
func downloadData(
    _ downloader: ImageDownloader,
    _ url: URL,
    options: ImageOptions = [],
    context: ImageContext = ImageContext(),
    progress: ImageLoadProgressHandler? = nil,
    timeout: Double = 20
) async -> Result<DownloadedImageData, WebImageError> {
    await awaitResult(timeout: timeout) { completion in
        downloader.downloadData(url: url, options: options, context: context, progress: progress, completion: completion)
    }
}

@Suite struct ImageDownloaderDataTests {
    private let photo = "jpeg/photo.jpg"

    @Test func deliversTheBodyUndecoded() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let loaded = try await downloadData(downloader, server.url("/image/\(photo)")).get()
            #expect(loaded.data == Fixtures.data(photo))
            #expect(loaded.response?.statusCode == 200)
            #expect(loaded.response?.mediaType == "image/jpeg")
            // Bytes no coder reads are still a body: nothing is decoded.
            let raw = try await downloadData(downloader, server.url("/generated?bytes=3000")).get()
            #expect(raw.data.count == 3000)
        }
    }

    @Test func checksStillApply() async throws {
        try await withTestHTTPServer { server in
            var config = ImageDownloaderConfig()
            config.acceptableContentTypes = ["image/png"]
            let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let status = await downloadData(downloader, server.url("/status/404"))
            #expect(status.failureCode == .invalidDownloadStatusCode)
            let type = await downloadData(downloader, server.url("/image/\(photo)"))
            #expect(type.failureCode == .invalidDownloadContentType)
            let empty = await downloadData(downloader, server.url("/status/204"))
            #expect(empty.failureCode == .badImageData)
        }
    }

    @Test func imageAndDataCallersShareOneTransfer() async throws {
        try await withTestHTTPServer { server in
            registerSlowImage(on: server, delay: 200)
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/slow/\(photo)")
            async let image = download(downloader, url)
            async let data = downloadData(downloader, url)
            let (decoded, body) = await (image, data)
            let loaded = try decoded.get()
            #expect(try body.get().data == loaded.data)
            #expect(server.requestCount(forPath: "/slow/\(photo)") == 1)
        }
    }

    @Test func aDecryptorRunsForADataCaller() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            var context = ImageContext()
            context.decryptor = { data, _ in Data(data.reversed()) }
            let loaded = try await downloadData(downloader, server.url("/image/\(photo)"), context: context).get()
            #expect(loaded.data == Data(Fixtures.data(photo).reversed()))
        }
    }

    @Test func theLastProgressReportComesBeforeTheCompletion() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let size = Int64(Fixtures.data(photo).count)
            for _ in 0..<20 {
                let events = Locked<[String]>([])
                let result = await downloadData(downloader, server.url("/image/\(photo)?r=\(UUID().uuidString)")) { progress in
                    events.withLock { $0.append("progress \(progress.receivedBytes)/\(progress.expectedBytes)") }
                }
                events.withLock { $0.append("done") }
                #expect(result.failureCode == nil)
                let seen = events.withLock { $0 }
                #expect(seen.suffix(2) == ["progress \(size)/\(size)", "done"], "\(seen)")
            }
        }
    }

    @Test func cancellingADataCallerCompletesItOnce() async throws {
        try await withTestHTTPServer { server in
            let gate = ImageGate(server: server)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let calls = Locked<[Result<DownloadedImageData, WebImageError>]>([])
            let token = downloader.downloadData(url: server.url("/gated/\(photo)")) { result in
                calls.withLock { $0.append(result) }
            }
            #expect(await waitUntil(timeout: .seconds(10)) { gate.waitingCount == 1 })
            token.cancel()
            #expect(await waitUntil(timeout: .seconds(10)) { calls.withLock { $0.count } == 1 })
            gate.open()
            try await Task.sleep(for: .milliseconds(100))
            let seen = calls.withLock { $0 }
            #expect(seen.count == 1)
            #expect(seen.first?.failureCode == .cancelled)
            #expect(token.isCancelled && token.isFinished)
        }
    }

    /// A data caller that joins while the transfer's image callers are still decoding is served from the same
    /// body at once: it neither waits for the decode nor starts a transfer of its own.
    @Test func aDataCallerJoiningDuringADecodeGetsTheBodyAtOnce() async throws {
        try await withTestHTTPServer { server in
            // An executor of its own: the held decode would otherwise keep one of the shared executor's few slots
            // from every other suite running at the same time.
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared, executor: BoundedExecutor(width: 2))
            defer { downloader.invalidate() }
            let coder = HeldCoder()
            defer { coder.release() }
            var context = ImageContext()
            context.imageCoder = coder
            let url = server.url("/image/\(photo)")
            let image = Locked<Result<DownloadedImage, WebImageError>?>(nil)
            downloader.downloadImage(url: url, context: context) { result in image.withLock { $0 = result } }
            #expect(await waitUntil(timeout: .seconds(10)) { coder.isDecoding })

            let body = try await downloadData(downloader, url, timeout: 5).get()
            #expect(body.data == Fixtures.data(photo))
            #expect(image.withLock { $0 } == nil, "the image caller is still decoding")
            #expect(server.requestCount(forPath: "/image/\(photo)") == 1)

            coder.release()
            #expect(await waitUntil(timeout: .seconds(10)) { image.withLock { $0 } != nil })
            #expect(try image.withLock { $0 }?.get().image.pixelSize != nil)
        }
    }

    /// A body is held only while Core decodes it: once the image callers' decodes are over, a data caller of the
    /// same request starts a transfer of its own.
    @Test func aDataCallerAfterTheDecodesHaveEndedStartsATransferOfItsOwn() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/image/\(photo)")
            _ = try await download(downloader, url).get()
            #expect(await waitUntil(timeout: .seconds(10)) { downloader.heldBodies.count == 0 })
            let body = try await downloadData(downloader, url).get()
            #expect(body.data == Fixtures.data(photo))
            #expect(server.requestCount(forPath: "/image/\(photo)") == 2)
        }
    }
}

/// A coder whose decode waits until the test releases it (at most 20 seconds), then decodes as the registry does.
private final class HeldCoder: ImageCoding, Sendable {
    private let held = DispatchSemaphore(value: 0)
    private let state = Locked((decoding: false, released: false))

    var isDecoding: Bool { state.withLock { $0.decoding } }

    /// Lets the decode go on; calling it again does nothing.
    func release() {
        let first = state.withLock { state in
            defer { state.released = true }
            return !state.released
        }
        if first { held.signal() }
    }

    func canDecode(_ data: Data) -> Bool { ImageCoderRegistry.shared.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        state.withLock { $0.decoding = true }
        _ = held.wait(timeout: .now() + 20)
        return try ImageCoderRegistry.shared.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        throw .unsupportedFormat(format, "encode")
    }
}
