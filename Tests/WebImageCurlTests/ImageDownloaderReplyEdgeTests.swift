import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Replies at the edges of HTTP that libcurl lets through, or chokes on: the downloader must end each with the
/// documented outcome.
@Suite struct ImageDownloaderReplyEdgeTests {
    private let png = Fixtures.data("png/gray8.png")

    /// Downloads `url` once with a downloader of its own, so that no earlier transfer shaped its handle.
    private func downloadOnce(_ reply: Data) async throws -> Result<DownloadedImageData, WebImageError> {
        let listener = try RawTCPListener(.respond(reply))
        let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
        let result = await downloadData(downloader, try #require(URL(string: listener.url + "image.png")))
        downloader.invalidate()
        await listener.stop()
        return result
    }

    /// curl reads `HTTP/200 OK` (after a `100 Continue`) as an HTTP/2 status line with status 0, and completes the
    /// transfer; status 0 is what a `file:` URL has, so the reply passed every check.
    @Test func aReplyWithoutAStatusCodeIsABadServerResponse() async throws {
        let reply = Data("HTTP/1.1 100 Continue\r\n\r\nHTTP/200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n".utf8) + png
        let result = try await downloadOnce(reply)
        guard case .failure(let error) = result else {
            Issue.record("succeeded with status \((try? result.get().response?.statusCode) ?? -1)")
            return
        }
        #expect(error.code == .badServerResponse, "\(error)")
        #expect(error.message.contains("no status code"), "\(error.message)")
        #expect(!ImageLoaderFailure.isPermanent(error))
    }

    @Test func aContentTypeThatNamesNoMediaTypeIsRefusedWhereTypesAreChecked() async throws {
        let listener = try RawTCPListener(.respond(RawTCPListener.response(headers: ["Content-Type: ; image/png"], body: png)))
        let url = try #require(URL(string: listener.url + "image.png"))
        var config = ImageDownloaderConfig()
        let unchecked = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        let loaded = await downloadData(unchecked, url)
        unchecked.invalidate()
        config.acceptableContentTypes = ["image/png"]
        let checked = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        let refused = await downloadData(checked, url)
        checked.invalidate()
        await listener.stop()
        #expect(try loaded.get().data == png, "no list of types: not checked")
        #expect(refused.failureCode == .invalidDownloadContentType, "\(refused)")
    }

    /// libcurl refuses a length that is not a number; the response's own reading of one gives nil.
    @Test(arguments: ["-1", "abc"])
    func anInvalidContentLengthIsABadServerResponse(length: String) async throws {
        let reply = Data("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8) + png
        #expect(try await downloadOnce(reply).failureCode == .badServerResponse)
    }

    /// A folded line right after the status line continues no field: RFC 9112 has a client ignore it or refuse the
    /// reply. The downloader refuses it, whatever libcurl's version: before 8.1.0 curl refuses it itself, with the
    /// code it gives a bad option, and later ones hand it on as a field of its own.
    @Test func aFoldedFirstHeaderLineIsABadServerResponse() async throws {
        let reply = Data("HTTP/1.1 200 OK\r\n folded: value\r\nContent-Type: image/png\r\nContent-Length: \(png.count)\r\n\r\n".utf8) + png
        let result = try await downloadOnce(reply)
        #expect(result.failureCode == .badServerResponse, "\(result)")
    }

    /// The same reply on a handle that served another transfer. libcurl before 8.1.0 keeps, in an easy handle, a
    /// pointer to the last header it stored, and frees the headers without clearing it when the handle starts its
    /// next transfer; a folded first line then makes curl append to the freed header (curl issue 11101). So, on
    /// a handle that served the first reply, the second reads and reallocates freed memory, unless the downloader
    /// never gives a handle that performed a transfer to another one there.
    ///
    /// Only AddressSanitizer (`Scripts/sanitize.sh`) catches that use reliably: without it, whether the process
    /// crashes (in `strlen` or `realloc`) or the freed block still looks like a header and the test passes is
    /// chance.
    @Test func aFoldedFirstHeaderLineOnAUsedHandleNeverReachesAFreedHeader() async throws {
        let first = try RawTCPListener(.respond(RawTCPListener.response(headers: ["Content-Type: image/png", "ETag: \"abc\""], body: png)))
        let folded = Data("HTTP/1.1 200 OK\r\n folded: value\r\nContent-Type: image/png\r\nContent-Length: \(png.count)\r\n\r\n".utf8) + png
        let second = try RawTCPListener(.respond(folded))
        var config = ImageDownloaderConfig()
        // One transfer at a time: each takes the handle the one before it gave back, where handles are reused.
        config.maxConcurrentDownloads = 1
        let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        for round in 0..<3 {
            let plain = await downloadData(downloader, try #require(URL(string: first.url + "\(round)/a.png")))
            #expect(try plain.get().data == png)
            let refused = await downloadData(downloader, try #require(URL(string: second.url + "\(round)/b.png")))
            #expect(refused.failureCode == .badServerResponse, "\(refused)")
        }
        downloader.invalidate()
        await first.stop()
        await second.stop()
    }
}
