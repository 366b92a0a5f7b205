import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

/// The loopback test server over TLS, with HTTP/1.1 only and with HTTP/2 offered, driven by the curl engine with
/// certificate verification off: every route serves both, and the counters see every request.
@Suite(.timeLimit(.minutes(2)))
struct TestHTTPServerTLSTests {
    let engine: CurlEngine

    init() throws {
        engine = try CurlEngine()
    }

    private func run(_ request: CurlRequest, timeout: Duration = .seconds(60)) async -> RecordingSink {
        await engine.run(request, timeout: timeout)
    }

    /// A request to `path` that accepts the server's self-signed certificate, with timeouts the rest of the
    /// suite cannot exhaust.
    private func request(_ server: TestHTTPServer, _ path: String) -> CurlRequest {
        var request = CurlRequest(url: server.url(path).absoluteString)
        request.verifiesTLS = false
        request.connectTimeout = .seconds(60)
        request.totalTimeout = .seconds(60)
        request.stallTimeout = .seconds(60)
        return request
    }

    private func body(_ sink: RecordingSink) throws -> Data {
        try #require(try sink.result?.get()).body
    }

    /// The HTTP version curl reports for a server of each mode.
    private static func version(_ tls: TestHTTPServer.TLSMode) -> String {
        tls == .http2 ? "2" : "1.1"
    }

    @Test func buildsHTTPSURLsAndLeavesThePlainServerAlone() async throws {
        try await withTestHTTPServer(tls: .http2) { server in
            #expect(server.tls == .http2)
            #expect(server.baseURL.absoluteString == "https://127.0.0.1:\(server.port)")
            #expect(server.url("/drip?bytes=10").absoluteString == "https://127.0.0.1:\(server.port)/drip?bytes=10")
        }
        try await withTestHTTPServer { server in
            #expect(server.tls == .off)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        }
    }

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func servesTheContentRoutes(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            let image = await run(request(server, "/image/jpeg/photo.jpg"))
            let result = try #require(try image.result?.get())
            #expect(result.response.statusCode == 200)
            #expect(result.response.contentType == "image/jpeg")
            #expect(result.body == Fixtures.data("jpeg/photo.jpg"))
            #expect(result.metrics.httpVersion == Self.version(tls))

            let generated = try body(await run(request(server, "/generated?bytes=5000&seed=3")))
            #expect(generated.count == 5000)
            let teapot = try #require(try await run(request(server, "/status/418")).result?.get())
            #expect(teapot.response.statusCode == 418)
            let empty = try #require(try await run(request(server, "/status/204")).result?.get())
            #expect(empty.response.statusCode == 204 && empty.body.isEmpty)
            #expect(try body(await run(request(server, "/chunked/png/gray8.png"))) == Fixtures.data("png/gray8.png"))
            let typed = try #require(try await run(request(server, "/content-type/png/gray8.png?type=text/x-probe"))
                .result?.get())
            #expect(typed.response.contentType == "text/x-probe")

            let gzip = try #require(try await run(request(server, "/gzip/png/gray8.png")).result?.get())
            #expect(gzip.body == Fixtures.data("png/gray8.png"))
            #expect(gzip.response.value(forHeader: "Content-Encoding") != nil)
            #expect(gzip.metrics.httpVersion == Self.version(tls))
        }
    }

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func servesRedirectsRevalidationAuthenticationAndCookies(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            let redirected = try #require(try await run(request(server, "/redirect/3")).result?.get())
            #expect(redirected.response.statusCode == 200)
            #expect(redirected.response.url.hasPrefix("https://"))
            #expect(redirected.body == Fixtures.data("jpeg/photo.jpg"))
            var loop = request(server, "/redirect-loop")
            loop.maxRedirects = 3
            #expect(await run(loop).errorCode == .tooManyRedirects)
            #expect(server.requestCount(forPath: "/redirect-loop") == 4)

            let first = try #require(try await run(request(server, "/etag/png/gray8.png")).result?.get())
            let etag = try #require(first.response.value(forHeader: "ETag"))
            var conditional = request(server, "/etag/png/gray8.png")
            conditional.headers = [HTTPHeader(name: "If-None-Match", value: etag)]
            let revalidated = try #require(try await run(conditional).result?.get())
            #expect(revalidated.response.statusCode == 304 && revalidated.body.isEmpty)

            var auth = request(server, "/auth/png/gray8.png")
            let refused = try #require(try await run(auth).result?.get())
            #expect(refused.response.statusCode == 401)
            auth.credentials = .init(user: "user", password: "password")
            let allowed = try #require(try await run(auth).result?.get())
            #expect(allowed.response.statusCode == 200 && allowed.body == Fixtures.data("png/gray8.png"))

            var set = request(server, "/cookie/set?name=session&value=abc")
            set.usesCookies = true
            _ = await run(set)
            var echo = request(server, "/cookie/echo")
            echo.usesCookies = true
            let cookie = try body(await run(echo))
            #expect(String(decoding: cookie, as: UTF8.self).contains("session=abc"))
        }
    }

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func faultRoutesMapToTransportErrors(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            #expect(await run(request(server, "/reset?after=1000")).errorCode == .connectionLost)
            #expect(await run(request(server, "/short?length=2000&send=1000")).errorCode == .connectionLost)
            #expect(await run(request(server, "/huge-length")).errorCode == .responseTooLarge)
            var stall = request(server, "/stall?after=100")
            stall.stallTimeout = .seconds(1)
            #expect(await run(stall).errorCode == .timedOut)
            let drip = try body(await run(request(server, "/drip?bytes=3000&chunks=3&interval_ms=20&length=0")))
            #expect(drip.count == 3000)
            #expect(drip.enumerated().allSatisfy { $0.element == TestHTTPRoutes.payloadByte(at: $0.offset) })
        }
    }

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func countsRequestsConnectionsAndHeaders(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            #expect(server.acceptedConnectionCount == 0)
            var probe = request(server, "/status/200?x=1")
            probe.headers = [HTTPHeader(name: "X-Probe", value: "1")]
            _ = await run(probe)
            probe.headers = [HTTPHeader(name: "X-Probe", value: "2"), HTTPHeader(name: "Authorization", value: "Bearer abc")]
            _ = await run(probe)
            _ = await run(request(server, "/image/png/gray8.png"))
            #expect(server.requestCount(forPath: "/status/200") == 2)
            #expect(server.requestCount(forPath: "/image/png/gray8.png") == 1)
            #expect(server.totalRequestCount == 3)
            let headers = try #require(server.lastRequestHeaders(forPath: "/status/200"))
            #expect(headers.first { $0.0.lowercased() == "x-probe" }?.1 == "2")
            #expect(headers.first { $0.0.lowercased() == "authorization" }?.1 == "Bearer abc")
            // Three sequential transfers of one engine over one kept-alive connection.
            #expect(server.acceptedConnectionCount == 1)
            #expect(server.openConnectionCount == 1)
        }
    }

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func aVerifyingClientRefusesTheSelfSignedCertificate(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            var verifying = request(server, "/image/png/gray8.png")
            verifying.verifiesTLS = true
            let sink = await run(verifying)
            #expect(sink.errorCode == .tlsFailure)
            // The handshake failed: no request reached a route.
            #expect(server.totalRequestCount == 0)
            #expect(server.acceptedConnectionCount == 1)
        }
    }
}
