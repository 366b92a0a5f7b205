import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

/// Easy handles go back to the pool with a plain request's options in place: the next request must get exactly its
/// own options, whatever the request before it set.
@Suite struct CurlEngineHandleReuseTests {
    /// One transfer at a time, so that each request takes the handle the one before it gave back.
    private func oneAtATime() throws -> CurlEngine {
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 1
        return try CurlEngine(configuration: configuration)
    }

    /// Whether a handle waits for HTTP/2 multiplexing is one of the settings it keeps, so the scheme test decides
    /// which handles a request may take.
    @Test func theSchemeTestTakesHTTPSInAnyCaseAndNothingElse() {
        for url in ["https://a.test/x", "HTTPS://a.test/x", "hTtPs:", "https:x"] {
            #expect(CurlRequest.isHTTPS(url), "\(url)")
        }
        for url in ["http://a.test/x", "https", "httpsx://a.test", "https//a.test", "", "ftps://a.test", " https://a.test"] {
            #expect(!CurlRequest.isHTTPS(url), "\(url)")
        }
    }

    @Test func plainRequestsShareHandlesAndSetOnlyTheirOwnOptions() async throws {
        try await withTestHTTPServer { server in
            let engine = try oneAtATime()
            defer { engine.invalidate() }
            let fixture = Fixtures.data("jpeg/photo.jpg")
            for index in 0..<10 {
                var request = CurlRequest(url: server.url("/image/jpeg/photo.jpg?n=\(index)").absoluteString)
                if index.isMultiple(of: 2) { request.headers = [HTTPHeader(name: "X-Even", value: "\(index)")] }
                let sink = await engine.run(request, timeout: .seconds(30))
                #expect(try sink.result?.get().body == fixture)
                let sent = try #require(server.lastRequestHeaders(forPath: "/image/jpeg/photo.jpg"))
                let even = sent.first { $0.0.lowercased() == "x-even" }?.1
                #expect(even == (index.isMultiple(of: 2) ? "\(index)" : nil), "request \(index) sends its own headers only")
            }
            // The multi handle, and one easy handle used over and over.
            #expect(engine.liveCounters.handles <= 3)
        }
    }

    @Test func aHeadRequestLeavesNothingForTheNextGet() async throws {
        try await withTestHTTPServer { server in
            let engine = try oneAtATime()
            defer { engine.invalidate() }
            let url = server.url("/image/jpeg/photo.jpg").absoluteString
            var head = CurlRequest(url: url)
            head.method = "HEAD"
            let headResult = try #require(try await engine.run(head, timeout: .seconds(30)).result?.get())
            #expect(headResult.body.isEmpty)
            #expect(headResult.response.statusCode == 200)
            let get = try #require(try await engine.run(CurlRequest(url: url), timeout: .seconds(30)).result?.get())
            #expect(get.body == Fixtures.data("jpeg/photo.jpg"), "the GET after a HEAD gets the body")
        }
    }

    @Test func credentialsAndLimitsDoNotCarryOver() async throws {
        try await withTestHTTPServer { server in
            let engine = try oneAtATime()
            defer { engine.invalidate() }
            var withCredentials = CurlRequest(url: server.url("/auth/jpeg/photo.jpg?user=u&password=p").absoluteString)
            withCredentials.credentials = ImageDownloaderCredentials(user: "u", password: "p")
            #expect(try await engine.run(withCredentials, timeout: .seconds(30)).result?.get().response.statusCode == 200)

            let plain = try #require(try await engine.run(CurlRequest(url: server.url("/auth/png/gray8.png?user=u&password=p").absoluteString), timeout: .seconds(30)).result?.get())
            #expect(plain.response.statusCode == 401, "no credentials left from the request before")
            let sent = try #require(server.lastRequestHeaders(forPath: "/auth/png/gray8.png"))
            #expect(!sent.contains { $0.0.lowercased() == "authorization" })

            // A plain request with a small size limit, then one with the default: each gets its own limit.
            var small = CurlRequest(url: server.url("/image/jpeg/photo.jpg").absoluteString)
            small.maxResponseSize = 100
            #expect(await engine.run(small, timeout: .seconds(30)).errorCode == .responseTooLarge)
            let large = try #require(try await engine.run(CurlRequest(url: server.url("/image/jpeg/photo.jpg").absoluteString), timeout: .seconds(30)).result?.get())
            #expect(large.body == Fixtures.data("jpeg/photo.jpg"))
            #expect(await engine.run(small, timeout: .seconds(30)).errorCode == .responseTooLarge, "and the small limit again")
        }
    }
}
