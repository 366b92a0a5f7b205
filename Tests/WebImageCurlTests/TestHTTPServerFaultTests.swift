import Foundation
import Testing
import WebImageTestSupport

/// The test server's misbehaving, redirecting, validating and load routes, and its shutdown.
@Suite(.timeLimit(.minutes(1)))
struct TestHTTPServerFaultTests {
    let photo = Array(Fixtures.data("jpeg/photo.jpg"))

    /// The milliseconds from `start` to now.
    private func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    @Test(arguments: [true, false])
    func dripsTheBodyInParts(withLength: Bool) async throws {
        try await withTestHTTPServer { server in
            let start = ContinuousClock.now
            let body = try await RawHTTPConnection(port: server.port)
                .get("/drip?bytes=1000&chunks=5&interval_ms=60&length=\(withLength ? 1 : 0)")
            let ms = milliseconds(since: start)
            #expect(body.body == (0..<1000).map(TestHTTPRoutes.payloadByte(at:)))
            #expect(body.complete)
            #expect(ms >= 230, "4 pauses of 60 ms took \(ms) ms")
            #expect((body.header("Content-Length") != nil) == withLength)
            #expect((body.header("Transfer-Encoding") == "chunked") == !withLength)
        }
    }

    @Test func stallsAfterTheFirstBytes() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port, timeoutMilliseconds: 2000)
            let response = try await connection.get("/stall?after=100")
            #expect(response.header("Content-Length") == "200")
            #expect(response.body.count == 100)
            #expect(!response.complete)
            #expect(!connection.isClosedByPeer)
        }
    }

    @Test func resetEndsTheBodyEarly() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try await connection.get("/reset?after=500")
            #expect(response.header("Content-Length") == "1000")
            #expect(response.body.count <= 500)
            #expect(!response.complete)
            #expect(connection.isClosedByPeer)
        }
    }

    @Test func shortBodyEndsBeforeItsLength() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let response = try await connection.get("/short?length=1000&send=300")
            #expect(response.header("Content-Length") == "1000")
            #expect(response.body == (0..<300).map(TestHTTPRoutes.payloadByte(at:)))
            #expect(!response.complete)
            #expect(connection.isClosedByPeer)
        }
    }

    @Test func announcesAHugeLength() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port, timeoutMilliseconds: 2000)
            let response = try await connection.get("/huge-length")
            #expect(response.header("Content-Length") == String(10 << 30))
            #expect(response.body.count == 1024)
            #expect(!response.complete)
        }
    }

    @Test func delaysTheHeaders() async throws {
        try await withTestHTTPServer { server in
            let start = ContinuousClock.now
            let status = try await RawHTTPConnection(port: server.port).get("/slow-headers?delay_ms=300").status
            let ms = milliseconds(since: start)
            #expect(status == 200)
            #expect(ms >= 290, "headers came after \(ms) ms")
        }
    }

    @Test func redirectsThroughAChain() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            var target = "/redirect/3?to=/image/png/gray8.png"
            var hops = 0
            while hops < 10 {
                let response = try await connection.get(target)
                guard response.status == 302, let location = response.header("Location") else {
                    #expect(response.body == Array(Fixtures.data("png/gray8.png")))
                    break
                }
                target = location
                hops += 1
            }
            #expect(hops == 3)
            #expect(try await connection.get("/redirect/1").header("Location") == TestHTTPRoutes.defaultRedirectTarget)
            #expect(try await connection.get("/redirect-loop").header("Location") == "/redirect-loop")
            let file = try await connection.get("/redirect-file")
            #expect(file.status == 302)
            #expect(file.header("Location") == "file:///etc/passwd")
        }
    }

    @Test func answersNotModifiedToValidators() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let first = try await connection.get("/etag/photo.jpg")
            let etag = try #require(first.header("ETag"))
            #expect(first.status == 200 && first.body == photo)
            #expect(first.header("Last-Modified") == TestHTTPRoutes.lastModified)
            let matching = try await connection.get("/etag/photo.jpg", headers: [("If-None-Match", "\"x\", W/\(etag)")])
            #expect(matching.status == 304)
            #expect(matching.body.isEmpty)
            #expect(matching.header("ETag") == etag)
            #expect(try await connection.get("/etag/photo.jpg", headers: [("If-None-Match", "\"other\"")]).status == 200)
            let since = [("If-Modified-Since", "Thu, 22 Oct 2015 00:00:00 GMT")]
            #expect(try await connection.get("/etag/photo.jpg", headers: since).status == 304)
            let older = [("If-Modified-Since", "Tue, 20 Oct 2015 07:28:00 GMT")]
            #expect(try await connection.get("/etag/photo.jpg", headers: older).status == 200)
        }
    }

    @Test func requiresBasicAuthentication() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let denied = try await connection.get("/auth/photo.jpg?user=ann&password=secret")
            #expect(denied.status == 401)
            #expect(denied.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            let wrong = "Basic " + Data("ann:nope".utf8).base64EncodedString()
            #expect(try await connection.get("/auth/photo.jpg?user=ann&password=secret", headers: [("Authorization", wrong)]).status == 401)
            let right = "Basic " + Data("ann:secret".utf8).base64EncodedString()
            let allowed = try await connection.get("/auth/photo.jpg?user=ann&password=secret", headers: [("Authorization", right)])
            #expect(allowed.status == 200)
            #expect(allowed.body == photo)
        }
    }

    @Test func setsAndEchoesCookies() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let set = try await connection.get("/cookie/set?name=flavour&value=oat")
            #expect(set.header("Set-Cookie") == "flavour=oat; Path=/")
            #expect(try await connection.get("/cookie/echo", headers: [("Cookie", "flavour=oat")]).text == "flavour=oat")
            #expect(try await connection.get("/cookie/echo").text == "")
        }
    }

    @Test func compressesWhenTheClientAcceptsGzip() async throws {
        try await withTestHTTPServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            let gzip = try await connection.get("/gzip/photo.jpg", headers: [("Accept-Encoding", "gzip")])
            #expect(gzip.header("Content-Encoding") == "gzip")
            #expect(gzip.body.starts(with: [0x1F, 0x8B]))
            #expect(gzip.body != photo)
            #expect(gzip.complete)
            let plain = try await connection.get("/gzip/photo.jpg")
            #expect(plain.header("Content-Encoding") == nil)
            #expect(plain.body == photo)
            #expect(try await connection.get("/image/photo.jpg", headers: [("Accept-Encoding", "gzip")]).header("Content-Encoding") == nil)
        }
    }

    @Test func servesAThousandConcurrentConnections() async throws {
        try await withTestHTTPServer { server in
            let connections = try (0..<1000).map { _ in try RawHTTPConnection(port: server.port) }
            for connection in connections { try connection.send("GET", "/image/photo.jpg") }
            // All the reads on one thread of their own, rather than a thread each.
            let photo = photo
            let served = try await onOwnThread {
                try connections.filter { try $0.readResponseOnThisThread().body == photo }.count
            }
            #expect(served == 1000)
            #expect(server.requestCount(forPath: "/image/photo.jpg") == 1000)
        }
    }

    @Test func shutdownClosesConnectionsIsIdempotentAndFreesThePort() async throws {
        let server = try await TestHTTPServer.start()
        let port = server.port
        let stalled = try RawHTTPConnection(port: port, timeoutMilliseconds: 2000)
        _ = try await stalled.get("/stall?after=10")
        try await server.shutdown()
        try await server.shutdown()
        #expect(await stalled.waitForClose(timeoutMilliseconds: 2000))
        #expect(throws: (any Error).self) { try RawHTTPConnection(port: port) }
    }
}
