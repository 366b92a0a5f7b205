import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// The downloader against the test server over TLS (its certificate is self-signed) and HTTP/2: verification on
/// unless the request allows invalid certificates, the metrics of TLS transfers, multiplexing and reuse.
@Suite(.timeLimit(.minutes(2)))
struct ImageDownloaderTLSTests {
    /// A downloader whose timeouts the rest of the suite, running at the same time, cannot exhaust.
    private func makeDownloader() -> ImageDownloader {
        var config = ImageDownloaderConfig()
        config.connectTimeout = 60
        config.downloadTimeout = 60
        config.stallTimeout = 60
        return ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
    }

    /// Starts a download and waits (at most `timeout` seconds) for its completion; returns it with the token.
    private func load(
        _ downloader: ImageDownloader, _ url: URL, options: ImageOptions = [], timeout: Double = 60
    ) async -> (result: Result<DownloadedImage, WebImageError>, token: ImageDownloadToken) {
        let outcome = Locked<Result<DownloadedImage, WebImageError>?>(nil)
        let token = downloader.downloadImage(url: url, options: options) { result in
            outcome.withLock { $0 = $0 ?? result }
        }
        let done = await waitUntil(timeout: .seconds(timeout)) { outcome.withLock { $0 != nil } }
        let result = outcome.withLock { $0 } ?? .failure(WebImageError(.timedOut, "the test gave up waiting"))
        #expect(done, "the download of \(url) did not complete within \(timeout) s")
        return (result, token)
    }

    private static let photoSize = PixelSize(width: 320, height: 240)

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func aSelfSignedCertificateFailsWithTLSFailure(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            let downloader = makeDownloader()
            defer { downloader.invalidate() }
            let url = server.url("/image/jpeg/photo.jpg")
            let (result, _) = await load(downloader, url)
            guard case .failure(let error) = result else {
                Issue.record("a self-signed certificate was accepted with verification on")
                return
            }
            #expect(error.code == .tlsFailure)
            #expect(error.code.rawValue == 3004)
            #expect(error.message.contains(url.absoluteString))
            // The downloader takes the protocol's classification: a TLS failure is permanent, so the URL is blocked.
            #expect(downloader.shouldBlockFailedURL(url, error: error))
            #expect(server.totalRequestCount == 0)
        }
    }

    /// A server that drops the connection during the handshake is a lost connection, which is never blocked, though
    /// curl reports it with the same code as a failed handshake (CURLE_SSL_CONNECT_ERROR).
    @Test func aConnectionDroppedDuringTheHandshakeIsNotBlocked() async throws {
        let listener = try RawTCPListener(.close)
        let downloader = makeDownloader()
        let url = try #require(URL(string: "https://127.0.0.1:\(listener.port)/image.jpg"))
        let (result, _) = await load(downloader, url, options: .allowInvalidSSLCertificates)
        downloader.invalidate()
        await listener.stop()
        guard case .failure(let error) = result else {
            Issue.record("a load from a server that closes every connection succeeded")
            return
        }
        #expect(listener.acceptedCount >= 1)
        #expect(error.code == .connectionLost, "\(error)")
        #expect(error.message.contains(url.absoluteString))
        #expect(!error.message.contains("  "), "curl's trailing space is trimmed")
        #expect(!downloader.shouldBlockFailedURL(url, error: error))
    }

    @Test(arguments: [TestHTTPServer.TLSMode.http1, .http2])
    func allowingInvalidCertificatesLoadsTheImageWithTLSMetrics(tls: TestHTTPServer.TLSMode) async throws {
        try await withTestHTTPServer(tls: tls) { server in
            let downloader = makeDownloader()
            defer { downloader.invalidate() }
            let (result, token) = await load(
                downloader, server.url("/image/jpeg/photo.jpg"), options: .allowInvalidSSLCertificates)
            let loaded = try result.get()
            #expect(loaded.image.pixelSize == Self.photoSize)
            #expect(loaded.response?.statusCode == 200)
            let metrics = try #require(token.metrics)
            #expect(metrics.httpVersion == (tls == .http2 ? "2" : "1.1"))
            #expect(metrics.tlsHandshake > .zero)
            #expect(metrics.tlsHandshake >= metrics.connect)
            #expect(!metrics.reusedConnection)
            #expect(metrics.bytesReceived == Int64(loaded.data.count))
            #expect(server.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)
        }
    }

    /// The caller that verifies and the caller that does not must not share a transfer, whichever comes first:
    /// a shared transfer would give both the same outcome.
    @Test(arguments: [false, true])
    func callersWithAndWithoutVerificationDoNotShareATransfer(verifyingFirst: Bool) async throws {
        try await withTestHTTPServer(tls: .http1) { server in
            registerSlowImage(on: server, delay: 300)
            let downloader = makeDownloader()
            defer { downloader.invalidate() }
            let url = server.url("/slow/jpeg/photo.jpg")
            let first: ImageOptions = verifyingFirst ? [] : .allowInvalidSSLCertificates
            let second: ImageOptions = verifyingFirst ? .allowInvalidSSLCertificates : []
            async let a = load(downloader, url, options: first)
            async let b = load(downloader, url, options: second)
            let (resultA, resultB) = await (a.result, b.result)
            let (verifying, allowing) = verifyingFirst ? (resultA, resultB) : (resultB, resultA)
            #expect((try? allowing.get().image.pixelSize) == Self.photoSize)
            guard case .failure(let error) = verifying else {
                Issue.record("the verifying caller got an image from a self-signed server")
                return
            }
            #expect(error.code == .tlsFailure)
            // The verifying transfer stops in the handshake, before any request; each transfer had its own
            // connection, since curl reuses none across different verification settings.
            #expect(server.requestCount(forPath: "/slow/jpeg/photo.jpg") == 1)
            #expect(server.acceptedConnectionCount == 2)
        }
    }

    @Test func http2MultiplexesTwentyConcurrentLoadsOnOneConnection() async throws {
        try await withTestHTTPServer(tls: .http2) { server in
            registerSlowImage(on: server, delay: 100)
            let downloader = makeDownloader()
            defer { downloader.invalidate() }
            let loads = await withTaskGroup(of: (Result<DownloadedImage, WebImageError>, ImageDownloadMetrics?).self) {
                group in
                for index in 0..<20 {
                    let url = server.url("/slow/jpeg/photo.jpg?n=\(index)")
                    group.addTask {
                        let (result, token) = await load(downloader, url, options: .allowInvalidSSLCertificates)
                        return (result, token.metrics)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(loads.count == 20)
            #expect(loads.allSatisfy { (try? $0.0.get().image.pixelSize) == Self.photoSize })
            #expect(loads.allSatisfy { $0.1?.httpVersion == "2" })
            #expect(server.requestCount(forPath: "/slow/jpeg/photo.jpg") == 20)
            // PIPEWAIT: the transfers wait for the first connection to show it multiplexes, then share it.
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test func sequentialLoadsReuseATLSConnection() async throws {
        try await withTestHTTPServer(tls: .http1) { server in
            let downloader = makeDownloader()
            defer { downloader.invalidate() }
            let (firstResult, first) = await load(
                downloader, server.url("/image/jpeg/photo.jpg"), options: .allowInvalidSSLCertificates)
            let (secondResult, second) = await load(
                downloader, server.url("/image/png/gray8.png"), options: .allowInvalidSSLCertificates)
            #expect((try? firstResult.get()) != nil && (try? secondResult.get()) != nil)
            let firstMetrics = try #require(first.metrics)
            let secondMetrics = try #require(second.metrics)
            #expect(firstMetrics.httpVersion == "1.1" && secondMetrics.httpVersion == "1.1")
            #expect(!firstMetrics.reusedConnection)
            #expect(secondMetrics.reusedConnection)
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test func decodesAGzipBodyOverHTTP2() async throws {
        try await withTestHTTPServer(tls: .http2) { server in
            let downloader = makeDownloader()
            defer { downloader.invalidate() }
            let (result, token) = await load(
                downloader, server.url("/gzip/jpeg/photo.jpg"), options: .allowInvalidSSLCertificates)
            let loaded = try result.get()
            #expect(loaded.image.pixelSize == Self.photoSize)
            #expect(token.metrics?.httpVersion == "2")
            let encoding = loaded.response?.headers.first { $0.name.lowercased() == "content-encoding" }?.value
            #expect(encoding == "gzip" || encoding == "deflate")
            let sent = server.lastRequestHeaders(forPath: "/gzip/jpeg/photo.jpg") ?? []
            #expect(sent.contains { $0.0.lowercased() == "accept-encoding" && $0.1.contains("gzip") })
        }
    }
}
