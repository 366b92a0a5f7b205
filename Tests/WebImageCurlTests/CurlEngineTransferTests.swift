import CCurl
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

@Suite struct CurlEngineTransferTests {
    let engine: CurlEngine

    init() throws {
        engine = try CurlEngine()
    }

    private func run(_ request: CurlRequest, timeout: Duration = .seconds(30)) async -> RecordingSink {
        await engine.run(request, timeout: timeout)
    }

    @Test func readsAFileURLWhenAllowed() async throws {
        var request = CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString)
        request.allowsFileScheme = true
        let sink = await run(request)
        let result = try #require(try sink.result?.get())
        #expect(result.body == Fixtures.data("png/gray8.png"))
        #expect(sink.snapshot.chunkBytes == Int64(result.body.count))
        #expect(sink.completionCount == 1)
        #expect(sink.snapshot.responseCount == 1)
    }

    @Test func refusesAFileURLUnlessAllowed() async {
        let sink = await run(CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString))
        #expect(sink.errorCode == .unsupportedScheme)
        #expect(sink.snapshot.chunkBytes == 0)
    }

    @Test func refusedConnectionIsCannotConnect() async throws {
        let port = try RawTCPListener.closedPort()
        let sink = await run(CurlRequest(url: "http://127.0.0.1:\(port)/a.png"))
        #expect(sink.errorCode == .cannotConnect)
        if case .failure(let error)? = sink.result {
            #expect(error.message.contains("127.0.0.1:\(port)/a.png"))
        }
    }

    @Test func malformedURLIsInvalidURL() async {
        let sink = await run(CurlRequest(url: "http://[::1"))
        #expect(sink.errorCode == .invalidURL)
    }

    @Test func receivesAFixedResponse() async throws {
        let body = Data((0..<5000).map { UInt8($0 % 251) })
        let listener = try RawTCPListener(.respond(RawTCPListener.response(headers: ["Content-Type: image/png", "X-Test: yes"], body: body)))
        let sink = await run(CurlRequest(url: listener.url + "image.png"))
        await listener.stop()
        let result = try #require(try sink.result?.get())
        #expect(result.body == body)
        #expect(result.response.statusCode == 200)
        #expect(result.response.contentType == "image/png")
        #expect(result.response.value(forHeader: "x-TEST") == "yes")
        #expect(result.response.expectedContentLength == 5000)
        #expect(result.metrics.bytesReceived == 5000)
        #expect(result.metrics.httpVersion == "1.1")
        #expect(result.metrics.total > .zero)
        let progress = try #require(sink.snapshot.lastProgress)
        #expect(progress.bytesSoFar == 5000 && progress.expected == 5000)
    }

    @Test func anHTTPErrorStatusIsAResultNotAFailure() async throws {
        let listener = try RawTCPListener(.respond(RawTCPListener.response(status: "404 Not Found", body: Data("no".utf8))))
        let sink = await run(CurlRequest(url: listener.url))
        await listener.stop()
        let result = try #require(try sink.result?.get())
        #expect(result.response.statusCode == 404)
    }

    @Test func aSilentServerTimesOut() async throws {
        let listener = try RawTCPListener(.silent)
        var request = CurlRequest(url: listener.url)
        request.totalTimeout = .milliseconds(500)
        let start = ContinuousClock.now
        let sink = await run(request, timeout: .seconds(30))
        #expect(sink.errorCode == .timedOut)
        // Measured on the engine's thread, so the test's own scheduling does not count.
        let elapsed = try #require(sink.snapshot.completedAt) - start
        #expect(elapsed < .seconds(3))
        await listener.stop()
    }

    @Test func aStalledTransferTimesOutOnTheStallLimit() async throws {
        let listener = try RawTCPListener(.silent)
        var request = CurlRequest(url: listener.url)
        request.stallTimeout = .seconds(1)
        let sink = await run(request, timeout: .seconds(5))
        #expect(sink.errorCode == .timedOut)
        await listener.stop()
    }

    @Test func aClosedConnectionIsConnectionLost() async throws {
        let listener = try RawTCPListener(.close)
        let sink = await run(CurlRequest(url: listener.url))
        #expect(sink.errorCode == .connectionLost)
        await listener.stop()
    }

    @Test func anAnnouncedLengthOverTheLimitIsTooLarge() async throws {
        let listener = try RawTCPListener(.respond(RawTCPListener.response(body: Data(count: 4096))))
        var request = CurlRequest(url: listener.url)
        request.maxResponseSize = 1024
        let sink = await run(request)
        #expect(sink.errorCode == .responseTooLarge)
        await listener.stop()
    }

    @Test func aStreamedBodyOverTheLimitIsTooLarge() async throws {
        // No Content-Length: only the check while streaming can stop it.
        let head = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"
        let listener = try RawTCPListener(.respond(Data(head.utf8) + Data(count: 64 * 1024)))
        var request = CurlRequest(url: listener.url)
        request.maxResponseSize = 1024
        let sink = await run(request)
        #expect(sink.errorCode == .responseTooLarge)
        #expect(sink.snapshot.chunkBytes <= 1024)
        await listener.stop()
    }

    @Test func aFileOverTheLimitIsTooLarge() async {
        var request = CurlRequest(url: Fixtures.url("png/gray8.png").absoluteString)
        request.allowsFileScheme = true
        request.maxResponseSize = 10
        let sink = await run(request)
        #expect(sink.errorCode == .responseTooLarge)
    }

    @Test func errorKindsMapCurlCodes() {
        #expect(CurlError.kind(of: CURLE_OPERATION_TIMEDOUT) == .timedOut)
        #expect(CurlError.kind(of: CURLE_COULDNT_RESOLVE_HOST) == .cannotFindHost)
        #expect(CurlError.kind(of: CURLE_PEER_FAILED_VERIFICATION) == .tlsFailure)
        #expect(CurlError.kind(of: CURLE_TOO_MANY_REDIRECTS) == .tooManyRedirects)
        #expect(CurlError.kind(of: CURLE_HTTP2_STREAM) == .connectionLost)
        #expect(CurlError.kind(of: CURLE_FILESIZE_EXCEEDED) == .responseTooLarge)
        let message = CurlError.map(CURLE_COULDNT_CONNECT, url: "http://h/x").message
        #expect(message.contains("http://h/x"))
    }

    @Test func anSSLConnectErrorIsALostConnectionOnlyWhenTheSocketFailed() {
        let url = "https://h/x"
        let handshake = CurlError.map(CURLE_SSL_CONNECT_ERROR, detail: "error:0A000410:SSL routines::sslv3 alert handshake failure ", url: url)
        #expect(handshake.code == .tlsFailure)
        #expect(handshake.message == "error:0A000410:SSL routines::sslv3 alert handshake failure (https://h/x)")
        let reset = CurlError.map(CURLE_SSL_CONNECT_ERROR, detail: "Recv failure", url: url, osError: ECONNRESET)
        #expect(reset.code == .connectionLost)
        let closed = CurlError.map(CURLE_SSL_CONNECT_ERROR, detail: "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to h:443 ", url: url)
        #expect(closed.code == .connectionLost)
        #expect(closed.message.contains(url))
        #expect(CurlError.map(CURLE_PEER_FAILED_VERIFICATION, detail: "SSL certificate problem: self-signed certificate", url: url).code == .tlsFailure)
    }
}
