import Foundation
import Testing
import WebImage
import WebImageTestSupport

/// The cell-reuse pattern through the manager: cancel a load, then load the same URL again at once.
@Suite struct ImageManagerRerequestTests {
    /// Registers `/held/<fixture>`: requests wait until ``open()``, so that the first load is cancelled while its
    /// transfer runs.
    private final class Gate: Sendable {
        private let state = Locked<(open: Bool, waiting: [(TestHTTPResponder, TestHTTPFixtureCatalog.Entry)])>((false, []))

        init(server: TestHTTPServer) {
            server.routes.registerPrefix("/held/") { [self] request, responder in
                guard let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder) else {
                    responder.respond(status: 404, text: "no fixture")
                    return
                }
                let now = state.withLock { state in
                    if !state.open { state.waiting.append((responder, entry)) }
                    return state.open
                }
                if now { responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes) }
            }
        }

        var waitingCount: Int { state.withLock { $0.waiting.count } }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for (responder, entry) in waiting {
                responder.eventLoop.execute {
                    responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes)
                }
            }
        }
    }

    @Test func aLoadAfterTheLastCancelOfTheSameURLSucceeds() async throws {
        try await withTestHTTPServer { server in
            let gate = Gate(server: server)
            var config = ImageDownloaderConfig()
            config.stallTimeout = 120
            config.downloadTimeout = 120
            let harness = ManagerHarness(downloaderConfig: config)
            let url = server.url("/held/jpeg/photo.jpg")
            let first = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
            let operation = harness.manager.loadImage(url: url) { result in first.withLock { $0 = result } }
            #expect(await waitUntil(timeout: .seconds(30)) { gate.waitingCount == 1 })
            operation.cancel()
            let second = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
            harness.manager.loadImage(url: url) { result in second.withLock { $0 = result } }
            #expect(await waitUntil(timeout: .seconds(30)) { server.requestCount(forPath: "/held/jpeg/photo.jpg") == 2 })
            gate.open()
            #expect(await waitUntil(timeout: .seconds(30)) { second.withLock { $0 != nil } })
            let loaded = try #require(try second.withLock { $0 }?.get())
            #expect(loaded.image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(loaded.cacheType == ImageCacheType.none)
            #expect(await waitUntil(timeout: .seconds(30)) { first.withLock { $0 != nil } })
            if case .failure(let error) = first.withLock({ $0 }) {
                #expect(error.code == .cancelled)
            } else {
                Issue.record("the first load was cancelled, yet it delivered an image")
            }
            #expect(harness.manager.failedURLs.isEmpty, "a cancel is no failure")
        }
    }
}
