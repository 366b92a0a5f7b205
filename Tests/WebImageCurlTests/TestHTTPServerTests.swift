import Foundation
import Testing
import WebImageTestSupport

/// The loopback test server, driven by a raw HTTP/1.1 client that shares no code with the downloader.
@Suite(.timeLimit(.minutes(1)))
struct TestHTTPServerTests {
    let photo = TestHTTPFixtureCatalog.shared.entry("jpeg/photo.jpg")

    @Test func servesAFixtureWithItsTypeAndLength() async throws {
        try await withTestHTTPServer { server in
            let response = try await RawHTTPConnection(port: server.port).get("/image/photo.jpg")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/jpeg")
            #expect(response.header("Content-Length") == String(photo?.bytes.count ?? -1))
            #expect(response.body == Array(Fixtures.data("jpeg/photo.jpg")))
            #expect(response.complete)
            let byPath = try await RawHTTPConnection(port: server.port).get("/image/png/gray8.png")
            #expect(byPath.body == Array(Fixtures.data("png/gray8.png")))
            #expect(byPath.header("Content-Type") == "image/png")
            #expect(try await RawHTTPConnection(port: server.port).get("/image/nothing.png").status == 404)
        }
    }

    @Test func buildsURLsOnItsPort() async throws {
        try await withTestHTTPServer { server in
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            #expect(server.url("/drip?bytes=10").absoluteString == "http://127.0.0.1:\(server.port)/drip?bytes=10")
            #expect(server.port > 0)
        }
    }

    @Test func countsRequestsPerPathWithoutTheQuery() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            _ = try await connection.get("/image/photo.jpg")
            _ = try await connection.get("/image/photo.jpg?x=1")
            _ = try await connection.get("/status/204")
            #expect(server.requestCount(forPath: "/image/photo.jpg") == 2)
            #expect(server.requestCount(forPath: "/status/204") == 1)
            #expect(server.requestCount(forPath: "/never") == 0)
            #expect(server.totalRequestCount == 3)
            server.resetRequestLog()
            #expect(server.totalRequestCount == 0)
        }
    }

    @Test func recordsTheHeadersOfTheLastRequest() async throws {
        try await withTestHTTPServer { server in
            #expect(server.lastRequestHeaders(forPath: "/status/200") == nil)
            let connection = try RawHTTPConnection(port: server.port)
            _ = try await connection.get("/status/200", headers: [("X-Try", "1")])
            _ = try await connection.get("/status/200", headers: [("X-Try", "2"), ("Authorization", "Bearer abc")])
            let headers = try #require(server.lastRequestHeaders(forPath: "/status/200"))
            #expect(headers.first { $0.0 == "X-Try" }?.1 == "2")
            #expect(headers.first { $0.0 == "Authorization" }?.1 == "Bearer abc")
        }
    }

    @Test func keepsAConnectionAliveAcrossRequests() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let first = try await connection.get("/image/photo.jpg")
            let second = try await connection.get("/chunked/photo.jpg")
            #expect(first.status == 200 && second.status == 200)
            #expect(first.body == second.body)
            #expect(server.openConnectionCount == 1)
            #expect(!(await connection.waitForClose(timeoutMilliseconds: 100)))
        }
    }

    @Test func closesAfterConnectionClose() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try await connection.get("/status/200", headers: [("Connection", "close")])
            #expect(response.status == 200)
            #expect(await connection.waitForClose(timeoutMilliseconds: 2000))
        }
    }

    @Test(arguments: [200, 201, 204, 304, 400, 404, 418, 500, 503])
    func answersAnyStatus(_ code: Int) async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try await connection.get("/status/\(code)")
            #expect(response.status == code)
            #expect(response.body.isEmpty == (code == 204 || code == 304))
            // The connection stays usable after bodiless statuses.
            #expect(try await connection.get("/status/200").status == 200)
        }
    }

    @Test func answers404ForUnknownPaths() async throws {
        try await withTestHTTPServer { server in
            let response = try await RawHTTPConnection(port: server.port).get("/no/such/route")
            #expect(response.status == 404)
        }
    }

    @Test func servesRoutesRegisteredByATest() async throws {
        try await withTestHTTPServer { server in
            server.routes.register("/custom") { request, responder in
                responder.respond(status: 207, text: "custom \(request.query["q"] ?? "")")
            }
            let response = try await RawHTTPConnection(port: server.port).get("/custom?q=a%20b")
            #expect(response.status == 207)
            #expect(response.text == "custom a b")
        }
    }

    @Test func generatesDeterministicBytes() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let first = try await connection.get("/generated?bytes=5000")
            let second = try await connection.get("/generated?bytes=5000")
            #expect(first.body.count == 5000)
            #expect(first.body == second.body)
            #expect(first.header("Content-Type") == "application/octet-stream")
            #expect(try await connection.get("/generated?bytes=5000&seed=2").body != first.body)
            var random = SplitMix64(seed: 1)
            let words = [random.next(), random.next()]
            let expected = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
            #expect(Array(first.body.prefix(16)) == expected, "SplitMix64 words from seed 1, little-endian")
            #expect(try await connection.get("/generated?bytes=13").body == Array(first.body.prefix(13)))
        }
    }

    @Test func generatedBodiesCanWaitBeforeAnswering() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let clock = ContinuousClock()
            let start = clock.now
            let delayed = try await connection.get("/generated?bytes=64&delay_ms=200")
            let elapsed = clock.now - start
            #expect(elapsed >= .milliseconds(190), "answered after \(elapsed)")
            #expect(delayed.body == (try await connection.get("/generated?bytes=64")).body)
        }
    }

    @Test func sendsChunkedBodiesWithoutLength() async throws {
        try await withTestHTTPServer { server in
            let response = try await RawHTTPConnection(port: server.port).get("/chunked/photo.jpg")
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.header("Content-Length") == nil)
            #expect(response.body == photo?.bytes)
            #expect(response.complete)
        }
    }

    @Test func overridesTheContentType() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try await connection.get("/content-type/photo.jpg?type=text/html")
            #expect(response.header("Content-Type") == "text/html")
            #expect(response.body == photo?.bytes)
            #expect(try await connection.get("/content-type/photo.jpg?type=").header("Content-Type") == nil)
        }
    }
}
