import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageCurl

/// The engine against the loopback HTTP test server.
@Suite struct CurlEngineServerTests {
    let engine: CurlEngine

    init() throws {
        engine = try CurlEngine()
    }

    private func run(_ request: CurlRequest, timeout: Duration = .seconds(30)) async -> RecordingSink {
        await engine.run(request, timeout: timeout)
    }

    private func request(_ server: TestHTTPServer, _ path: String) -> CurlRequest {
        CurlRequest(url: server.url(path).absoluteString)
    }

    @Test func followsARedirectChainAndReportsTheLastResponse() async throws {
        try await withTestHTTPServer { server in
            let sink = await run(request(server, "/redirect/3"))
            let result = try #require(try sink.result?.get())
            #expect(result.response.statusCode == 200)
            #expect(result.response.url.hasSuffix(TestHTTPRoutes.defaultRedirectTarget))
            #expect(result.response.value(forHeader: "location") == nil)
            #expect(result.response.contentType == "image/jpeg")
            #expect(result.body == Fixtures.data("jpeg/photo.jpg"))
        }
    }

    @Test func aRedirectLoopIsTooManyRedirects() async throws {
        try await withTestHTTPServer { server in
            var request = request(server, "/redirect-loop")
            request.maxRedirects = 3
            let sink = await run(request)
            #expect(sink.errorCode == .tooManyRedirects)
            #expect(server.requestCount(forPath: "/redirect-loop") == 4)
        }
    }

    @Test func aRedirectToAFileIsRefusedEvenWhenFilesAreAllowed() async throws {
        try await withTestHTTPServer { server in
            var request = request(server, "/redirect-file")
            request.allowsFileScheme = true
            let sink = await run(request)
            #expect(sink.errorCode == .unsupportedScheme)
            #expect(sink.errorMessage?.contains("redirected") == true)
            #expect(sink.snapshot.chunkBytes == 0)
        }
    }

    @Test func aTransferWaitingForAConnectionIsNotAStall() async throws {
        // One connection to the host and two transfers: the second waits for the first, which drips for about
        // 3 s, longer than the second's 2 s stall timeout, so the stall clock must not run while it waits. The
        // first's own stall timeout is long: a loaded machine may space its parts by more than their 250 ms.
        var configuration = CurlEngine.Configuration()
        configuration.maxConcurrentTransfers = 2
        configuration.maxConnectionsPerHost = 1
        let engine = try CurlEngine(configuration: configuration)
        defer { engine.invalidate() }
        try await withTestHTTPServer { server in
            var first = request(server, "/drip?bytes=4000&chunks=12&interval_ms=250")
            first.stallTimeout = .seconds(30)
            var second = request(server, "/image/png/gray8.png")
            second.stallTimeout = .seconds(2)
            let firstSink = RecordingSink()
            engine.start(first, sink: firstSink)
            let secondSink = await engine.run(second, timeout: .seconds(30))
            #expect(await firstSink.waitForCompletion(timeout: .seconds(30)))
            #expect(firstSink.errorCode == nil, "\(String(describing: firstSink.result))")
            #expect(secondSink.errorCode == nil, "\(String(describing: secondSink.result))")
            #expect(server.openConnectionCount <= 1)
            // The second's wait for the connection is its queue time, kept apart from curl's own times.
            let firstMetrics = try #require(try firstSink.result?.get().metrics)
            let secondMetrics = try #require(try secondSink.result?.get().metrics)
            #expect(secondMetrics.queued > .seconds(1), "\(secondMetrics)")
            #expect(firstMetrics.queued < secondMetrics.queued)
            #expect(secondMetrics.total < secondMetrics.queued, "curl's clock starts when the transfer does")
        }
    }

    @Test func decodesAGzipBody() async throws {
        try await withTestHTTPServer { server in
            let sink = await run(request(server, "/gzip/png/gray8.png"))
            let result = try #require(try sink.result?.get())
            #expect(result.body == Fixtures.data("png/gray8.png"))
            let sent = server.lastRequestHeaders(forPath: "/gzip/png/gray8.png") ?? []
            #expect(sent.contains { $0.0.lowercased() == "accept-encoding" && $0.1.contains("gzip") })
        }
    }

    @Test func sendsHeadersAndBasicCredentials() async throws {
        try await withTestHTTPServer { server in
            var request = request(server, "/auth/png/gray8.png")
            request.headers = [HTTPHeader(name: "X-Probe", value: "42")]
            let refused = await run(request)
            let refusedResult = try #require(try refused.result?.get())
            #expect(refusedResult.response.statusCode == 401)
            request.credentials = .init(user: "user", password: "password")
            let sink = await run(request)
            let result = try #require(try sink.result?.get())
            #expect(result.response.statusCode == 200)
            #expect(result.body == Fixtures.data("png/gray8.png"))
            let sent = server.lastRequestHeaders(forPath: "/auth/png/gray8.png") ?? []
            #expect(sent.contains { $0.0.lowercased() == "x-probe" && $0.1 == "42" })
        }
    }

    @Test func keepsCookiesOnlyWhenAsked() async throws {
        try await withTestHTTPServer { server in
            var set = request(server, "/cookie/set?name=session&value=abc")
            set.usesCookies = true
            _ = await run(set)
            var echo = request(server, "/cookie/echo")
            let without = await run(echo)
            let withoutResult = try #require(try without.result?.get())
            #expect(withoutResult.body.isEmpty)
            echo.usesCookies = true
            let with = await run(echo)
            let body = try #require(try with.result?.get().body)
            #expect(String(decoding: body, as: UTF8.self).contains("session=abc"))
        }
    }

    @Test func reusesTheConnection() async throws {
        try await withTestHTTPServer { server in
            let first = await run(request(server, "/image/png/gray8.png"))
            let second = await run(request(server, "/image/png/gray8.png"))
            let firstResult = try #require(try first.result?.get())
            let secondResult = try #require(try second.result?.get())
            #expect(!firstResult.metrics.reusedConnection)
            #expect(secondResult.metrics.reusedConnection)
        }
    }

    @Test func faultRoutesMapToTransportErrors() async throws {
        try await withTestHTTPServer { server in
            #expect(await run(request(server, "/reset?after=1000")).errorCode == .connectionLost)
            #expect(await run(request(server, "/short?length=2000&send=1000")).errorCode == .connectionLost)
            #expect(await run(request(server, "/huge-length")).errorCode == .responseTooLarge)
            var stall = request(server, "/stall?after=100")
            stall.stallTimeout = .seconds(1)
            let stalled = await run(stall)
            #expect(stalled.errorCode == .timedOut)
            // Measured on the engine's thread from the last byte, so that neither the test's scheduling nor the
            // server's counts: well before curl's own low-speed check, which averages the speed over several
            // seconds, would fire (some 6 s after the last byte).
            let events = stalled.snapshot
            if let completedAt = events.completedAt, let lastChunkAt = events.lastChunkAt {
                #expect(completedAt - lastChunkAt < .seconds(3))
            }
        }
    }

    @Test func reportsProgressWithoutALength() async throws {
        try await withTestHTTPServer { server in
            let sink = await run(request(server, "/drip?bytes=3000&chunks=3&interval_ms=20&length=0"))
            let result = try #require(try sink.result?.get())
            #expect(result.body.count == 3000)
            #expect(result.response.expectedContentLength == nil)
            let progress = try #require(sink.snapshot.lastProgress)
            #expect(progress.bytesSoFar == 3000 && progress.expected == -1)
            #expect(result.body.enumerated().allSatisfy { $0.element == TestHTTPRoutes.payloadByte(at: $0.offset) })
        }
    }
}

extension CurlEngineServerTests {
    @Test func concurrentStartsWithRandomCancelsAndDelaysCompleteOnce() async throws {
        try await withTestHTTPServer { server in
            var sinks: [RecordingSink] = []
            var ids: [CurlTransferID] = []
            var generator = SystemRandomNumberGenerator()
            for index in 0..<300 {
                let path = index.isMultiple(of: 2)
                    ? "/generated?bytes=20000&seed=\(index)" : "/drip?bytes=4000&chunks=4&interval_ms=5"
                let sink = RecordingSink()
                // Patient: every transfer must end done or cancelled, however slowly a loaded machine serves them.
                ids.append(engine.start(CurlRequest.patient(url: server.url(path).absoluteString), sink: sink))
                sinks.append(sink)
                if Int.random(in: 0..<4, using: &generator) == 0, let victim = ids.randomElement(using: &generator) {
                    engine.cancel(victim)
                }
                if index.isMultiple(of: 50) { try await Task.sleep(for: .milliseconds(Int.random(in: 0..<20))) }
            }
            let all = sinks
            #expect(await waitUntil(timeout: .seconds(30)) { all.allSatisfy { $0.completionCount > 0 } })
            engine.invalidate()
            #expect(all.allSatisfy { $0.completionCount == 1 && $0.snapshot.eventsAfterCompletion == 0 })
            for sink in all {
                if case .failure(let error)? = sink.result { #expect(error.code == .cancelled, "\(error)") }
            }
            #expect(engine.liveCounters.isEmpty)
        }
    }
}
