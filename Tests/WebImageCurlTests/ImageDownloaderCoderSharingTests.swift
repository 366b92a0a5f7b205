import Foundation
import Testing
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Callers that bring a coder in their context: one decode per coder object, one per caller for coder values.
@Suite struct ImageDownloaderCoderSharingTests {
    /// A coder value: two copies cannot be told apart from two different coders.
    private struct CoderValue: ImageCoding {
        let inner: MockCoder
        func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
        func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image { try inner.decode(data, options: options) }
        func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }
        func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
            try inner.encode(image, as: format, options: options)
        }
    }

    /// Serves the mock coder's bytes after a delay, so that callers started together share the transfer.
    private func registerMockImage(on server: TestHTTPServer) {
        server.routes.registerPrefix("/mock/") { _, responder in
            responder.after(milliseconds: 300) {
                responder.respond(status: 200, headers: [("Content-Type", "image/png")], body: Array("MOCK-image".utf8))
            }
        }
    }

    private func loadAll(_ downloader: ImageDownloader, _ url: URL, contexts: [ImageContext]) async -> [Result<DownloadedImage, WebImageError>] {
        await withTaskGroup(of: Result<DownloadedImage, WebImageError>.self) { group in
            for context in contexts { group.addTask { await download(downloader, url, context: context) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func callersWithTheSameCoderObjectShareOneDecode() async throws {
        try await withTestHTTPServer { server in
            registerMockImage(on: server)
            let downloader = ImageDownloader(coder: MockCoder(magic: "NEVER", format: .png))
            defer { downloader.invalidate() }
            let coder = MockCoder(magic: "MOCK", format: .png)
            var context = ImageContext()
            context.imageCoder = coder
            let results = await loadAll(downloader, server.url("/mock/shared"), contexts: Array(repeating: context, count: 20))
            #expect(results.allSatisfy { (try? $0.get().image.pixelSize) == PixelSize(width: 8, height: 8) })
            #expect(server.requestCount(forPath: "/mock/shared") == 1)
            #expect(coder.decodeCount == 1, "twenty callers with one coder object, one decode")
        }
    }

    @Test func callersWithDifferentCodersDecodeApart() async throws {
        try await withTestHTTPServer { server in
            registerMockImage(on: server)
            let downloader = ImageDownloader(coder: MockCoder(magic: "NEVER", format: .png))
            defer { downloader.invalidate() }
            let objects = (0..<3).map { _ in MockCoder(magic: "MOCK", format: .png) }
            let value = CoderValue(inner: MockCoder(magic: "MOCK", format: .png))
            var contexts: [ImageContext] = objects.map { coder in
                var context = ImageContext()
                context.imageCoder = coder
                return context
            }
            var valueContext = ImageContext()
            valueContext.imageCoder = value
            contexts += Array(repeating: valueContext, count: 4)
            let results = await loadAll(downloader, server.url("/mock/apart"), contexts: contexts)
            #expect(results.allSatisfy { (try? $0.get().image.pixelSize) == PixelSize(width: 8, height: 8) })
            #expect(server.requestCount(forPath: "/mock/apart") == 1)
            #expect(objects.map(\.decodeCount) == [1, 1, 1], "each coder object decodes once for its caller")
            #expect(value.inner.decodeCount == 4, "a coder value decodes once per caller")
        }
    }
}
