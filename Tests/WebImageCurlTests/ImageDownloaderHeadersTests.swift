import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

@Suite struct ImageDownloaderHeadersTests {
    /// The values of the fields named `name` (any case) in the last request the server saw for `path`.
    static func sent(_ name: String, on server: TestHTTPServer, path: String) throws -> [String] {
        let headers = try #require(server.lastRequestHeaders(forPath: path))
        return headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }

    @Test func headersStartAsConfiguredAndCanBeReadBack() {
        var config = ImageDownloaderConfig()
        config.httpHeaders.append(HTTPHeader(name: "X-Client", value: "tests"))
        let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
        defer { downloader.invalidate() }
        #expect(downloader.httpHeaders == config.httpHeaders)
        #expect(downloader.value(forHeader: "x-client") == "tests")
        #expect(downloader.value(forHeader: "ACCEPT") == ImageDownloaderConfig.acceptHeader)
        #expect(downloader.value(forHeader: "X-Missing") == nil)

        downloader.setValue("other", forHeader: "X-CLIENT")
        #expect(downloader.value(forHeader: "x-client") == "other")
        #expect(downloader.httpHeaders.filter { $0.hasName("x-client") }.count == 1)
        downloader.setValue(nil, forHeader: "x-client")
        #expect(downloader.value(forHeader: "X-Client") == nil)
        #expect(downloader.httpHeaders == ImageDownloaderConfig.defaultHeaders)
        // The configuration the downloader was made with does not change.
        #expect(downloader.config.httpHeaders == config.httpHeaders)
    }

    @Test func requestsCarryTheHeadersSetBeforeThemAndNotTheRemovedOnes() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }

            downloader.setValue("first", forHeader: "X-Token")
            downloader.setValue("image/png", forHeader: "accept")
            _ = try await download(downloader, server.url("/image/png/gray8.png")).get()
            #expect(try Self.sent("X-Token", on: server, path: "/image/png/gray8.png") == ["first"])
            #expect(try Self.sent("Accept", on: server, path: "/image/png/gray8.png") == ["image/png"])

            downloader.setValue("second", forHeader: "x-token")
            _ = try await download(downloader, server.url("/image/jpeg/photo.jpg")).get()
            #expect(try Self.sent("X-Token", on: server, path: "/image/jpeg/photo.jpg") == ["second"])

            downloader.setValue(nil, forHeader: "X-TOKEN")
            _ = try await download(downloader, server.url("/image/jpeg/gray.jpg")).get()
            #expect(try Self.sent("X-Token", on: server, path: "/image/jpeg/gray.jpg").isEmpty)
        }
    }

    @Test func aChangeLeavesRequestsAlreadyMadeAlone() async throws {
        try await withTestHTTPServer { server in
            // Records the X-Token of every request, then serves the fixture named by the rest of the path.
            let tokens = Locked<[String]>([])
            server.routes.registerPrefix("/recorded/") { request, responder in
                tokens.withLock { $0.append(request.header("X-Token") ?? "none") }
                guard let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder) else {
                    responder.respond(status: 404, text: "no fixture")
                    return
                }
                responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes)
            }
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/recorded/png/gray8.png")

            downloader.setValue("old", forHeader: "X-Token")
            let results = Locked<[Result<DownloadedImage, WebImageError>]>([])
            downloader.downloadImage(url: url) { result in results.withLock { $0.append(result) } }
            // The first request was made with "old" during its call; the change must not reach it.
            downloader.setValue("new", forHeader: "X-Token")
            downloader.downloadImage(url: url) { result in results.withLock { $0.append(result) } }

            #expect(await waitUntil(timeout: .seconds(60)) { results.withLock { $0.count } == 2 })
            #expect(results.withLock { $0.allSatisfy { (try? $0.get()) != nil } })
            // Different fields make different transfers: each reached the server with its own value.
            #expect(tokens.withLock { $0.sorted() } == ["new", "old"])
        }
    }

    @Test func concurrentChangesAndReadsAreSafe() async {
        let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
        defer { downloader.invalidate() }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        downloader.setValue("\(worker)-\(round)", forHeader: "X-Worker-\(worker)")
                        _ = downloader.value(forHeader: "X-Worker-\((worker + 1) % 8)")
                    }
                }
            }
        }
        for worker in 0..<8 {
            #expect(downloader.value(forHeader: "x-worker-\(worker)") == "\(worker)-199")
        }
        #expect(downloader.httpHeaders.count == ImageDownloaderConfig.defaultHeaders.count + 8)
    }
}
