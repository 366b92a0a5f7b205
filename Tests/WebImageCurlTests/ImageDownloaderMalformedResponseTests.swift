import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// A reply that is not valid HTTP is a transport failure the URL recovers from, not a refused scheme: the manager
/// must not put the URL on its failed list for it.
@Suite struct ImageDownloaderMalformedResponseTests {
    private static let replies: [(String, String)] = [
        ("HTTP/0.9 (no status line)", "<html>hello</html>\r\n"),
        ("garbage status line", "HTTQ/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"),
        ("status line without a code", "HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nhi"),
        ("unknown HTTP version", "HTTP/3.7 200 OK\r\nContent-Length: 2\r\n\r\nhi"),
        ("status code out of range", "HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\nhi"),
        ("header line without a colon", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nno colon here\r\n\r\nhi"),
        ("body that is not the gzip it claims", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello"),
    ]

    @Test(arguments: replies)
    func aMalformedReplyIsABadServerResponseAndNotPermanent(name: String, reply: String) async throws {
        let listener = try RawTCPListener(.respond(Data(reply.utf8)))
        let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
        let url = try #require(URL(string: listener.url + "image.png"))
        let result = await downloadData(downloader, url)
        downloader.invalidate()
        await listener.stop()
        guard case .failure(let error) = result else {
            Issue.record("\(name): succeeded")
            return
        }
        #expect(error.code == .badServerResponse, "\(name): \(error)")
        #expect(error.code.name == "badServerResponse")
        #expect(error.message.contains(url.absoluteString), "\(name): \(error.message)")
        #expect(!ImageLoaderFailure.isPermanent(error), "\(name)")
        #expect(!downloader.shouldBlockFailedURL(url, error: error), "\(name)")
    }

    @Test func aRedirectToARefusedSchemeStaysUnsupportedSchemeAndPermanent() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/redirect-file")
            let result = await downloadData(downloader, url)
            guard case .failure(let error) = result else {
                Issue.record("a redirect to file: succeeded")
                return
            }
            #expect(error.code == .unsupportedScheme, "\(error)")
            #expect(error.message.contains("redirected"))
            #expect(downloader.shouldBlockFailedURL(url, error: error))
            // A refused scheme is refused before any request: still unsupportedScheme, and permanent.
            let refused = await downloadData(downloader, try #require(URL(string: "ftp://127.0.0.1/a.png")))
            #expect(refused.failureCode == .unsupportedScheme)
        }
    }

    @Test func aRedirectToAMalformedReplyIsABadServerResponse() async throws {
        let listener = try RawTCPListener(.respond(Data("hello\r\n".utf8)))
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let target = TestHTTPRequest.percentEncoded(listener.url + "image.png")
            let result = await downloadData(downloader, server.url("/redirect/1?to=\(target)"))
            #expect(result.failureCode == .badServerResponse, "\(result)")
        }
        await listener.stop()
    }
}
