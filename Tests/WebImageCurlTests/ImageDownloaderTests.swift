import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Starts an operation with `start` and waits for the result it hands its completion, with a time limit so that
/// a bug fails the test instead of hanging it.
func awaitResult<Success: Sendable>(
    timeout: Double,
    _ start: (@escaping @Sendable (Result<Success, WebImageError>) -> Void) -> Void
) async -> Result<Success, WebImageError> {
    let box = Locked<CheckedContinuation<Result<Success, WebImageError>, Never>?>(nil)
    return await withCheckedContinuation { continuation in
        box.withLock { $0 = continuation }
        start { result in box.withLock { $0.take() }?.resume(returning: result) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            box.withLock { $0.take() }?.resume(returning: .failure(WebImageError(.timedOut, "the test gave up waiting")))
        }
    }
}

/// Waits for a download's completion, with a time limit.
func download(
    _ downloader: ImageDownloader,
    _ url: URL,
    options: ImageOptions = [],
    context: ImageContext = ImageContext(),
    timeout: Double = 20
) async -> Result<DownloadedImage, WebImageError> {
    await awaitResult(timeout: timeout) { completion in
        downloader.downloadImage(url: url, options: options, context: context, completion: completion)
    }
}

/// Registers `/slow/<fixture>`: the fixture after `delay` milliseconds, so that concurrent callers overlap.
func registerSlowImage(on server: TestHTTPServer, delay: Int = 300) {
    server.routes.registerPrefix("/slow/") { request, responder in
        guard let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder) else {
            responder.respond(status: 404, text: "no fixture")
            return
        }
        responder.after(milliseconds: delay) {
            responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes)
        }
    }
}

/// Registers `/gated/<fixture>`: requests wait until the gate opens, so that a test decides when they finish.
extension ImageDownloaderConfig {
    /// Timeouts long enough that a transfer held at an ``ImageGate`` never times out, however loaded the machine
    /// running the tests is: those tests are about cancellation and sharing, not timeouts.
    static var patientWithGates: ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.stallTimeout = 120
        config.downloadTimeout = 120
        return config
    }
}

final class ImageGate: Sendable {
    private let waiting = Locked<(open: Bool, responders: [(TestHTTPResponder, [UInt8], String)])>((false, []))

    init(server: TestHTTPServer) {
        server.routes.registerPrefix("/gated/") { [self] request, responder in
            guard let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder) else {
                responder.respond(status: 404, text: "no fixture")
                return
            }
            let answerNow = waiting.withLock { state in
                if !state.open { state.responders.append((responder, entry.bytes, entry.contentType)) }
                return state.open
            }
            if answerNow { responder.respond(status: 200, headers: [("Content-Type", entry.contentType)], body: entry.bytes) }
        }
    }

    /// Answers every waiting request, and later ones at once.
    func open() {
        let responders = waiting.withLock { state in
            state.open = true
            defer { state.responders = [] }
            return state.responders
        }
        for (responder, bytes, type) in responders {
            responder.eventLoop.execute { responder.respond(status: 200, headers: [("Content-Type", type)], body: bytes) }
        }
    }

    /// The requests waiting.
    var waitingCount: Int { waiting.withLock { $0.responders.count } }
}

@Suite struct ImageDownloaderTests {
    @Test func downloadsAndDecodesAnImage() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let result = try await download(downloader, server.url("/image/jpeg/photo.jpg")).get()
            #expect(result.image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(result.response?.statusCode == 200)
            #expect(result.data.count > 1000)
            let headers = try #require(server.lastRequestHeaders(forPath: "/image/jpeg/photo.jpg"))
            let accept = headers.first { $0.0.lowercased() == "accept" }?.1
            #expect(accept == ImageDownloaderConfig.acceptHeader)
            #expect(headers.contains { $0.0.lowercased() == "user-agent" && $0.1.hasPrefix("swift-web-image/") })
        }
    }

    @Test func concurrentCallersOfOneURLShareOneTransfer() async throws {
        try await withTestHTTPServer { server in
            // The response waits until every caller has joined, however slowly a loaded machine starts them.
            let gate = ImageGate(server: server)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/gated/jpeg/photo.jpg")
            final class Record: Sendable {
                let started = Locked(0)
                let results = Locked<[Result<DownloadedImage, WebImageError>]>([])
            }
            let record = Record()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<1_000 {
                    group.addTask {
                        downloader.downloadImage(url: url) { result in record.results.withLock { $0.append(result) } }
                        record.started.withLock { $0 += 1 }
                    }
                }
            }
            #expect(record.started.withLock { $0 } == 1_000)
            #expect(record.results.withLock { $0.isEmpty }, "nobody is answered before the response")
            gate.open()
            #expect(await waitUntil(timeout: .seconds(60)) { record.results.withLock { $0.count } == 1_000 })
            #expect(record.results.withLock { $0 }.allSatisfy { (try? $0.get().image.pixelSize) == PixelSize(width: 320, height: 240) })
            #expect(server.requestCount(forPath: "/gated/jpeg/photo.jpg") == 1)
        }
    }

    @Test func differentAuthorizationHeadersGetSeparateTransfers() async throws {
        try await withTestHTTPServer { server in
            registerSlowImage(on: server)
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/slow/jpeg/photo.jpg")
            func context(_ token: String) -> ImageContext {
                var context = ImageContext()
                context.requestModifier = { request in
                    var request = request
                    request.setValue("Bearer \(token)", forHeader: "Authorization")
                    return request
                }
                return context
            }
            async let a = download(downloader, url, context: context("a"))
            async let b = download(downloader, url, context: context("b"))
            let (first, second) = await (a, b)
            #expect((try? first.get()) != nil && (try? second.get()) != nil)
            #expect(server.requestCount(forPath: "/slow/jpeg/photo.jpg") == 2)
        }
    }

    @Test func cancellingOneCallerLeavesTheOtherItsImage() async throws {
        try await withTestHTTPServer { server in
            let gate = ImageGate(server: server)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/gated/jpeg/photo.jpg")
            let cancelled = Locked<[Result<DownloadedImage, WebImageError>]>([])
            let token = downloader.downloadImage(url: url) { result in cancelled.withLock { $0.append(result) } }
            let kept = Locked<Result<DownloadedImage, WebImageError>?>(nil)
            downloader.downloadImage(url: url) { result in
                kept.withLock { $0 = result }
            }
            // Both callers are on the one transfer, which waits at the gate.
            for _ in 0..<200 where gate.waitingCount == 0 { try await Task.sleep(for: .milliseconds(25)) }
            #expect(gate.waitingCount == 1)
            token.cancel()
            token.cancel()
            gate.open()
            #expect(await waitUntil(timeout: .seconds(10)) { kept.withLock { $0 != nil } })
            #expect((try? kept.withLock { $0 }?.get().image.pixelSize) == PixelSize(width: 320, height: 240))
            // The cancelled caller's completion is dispatched on its own and may come after the kept one's.
            #expect(await waitUntil(timeout: .seconds(10)) { !cancelled.withLock { $0.isEmpty } })
            try await Task.sleep(for: .milliseconds(50))
            let outcomes = cancelled.withLock { $0 }
            #expect(outcomes.count == 1)
            #expect(outcomes.first?.failureCode == .cancelled)
            #expect(server.requestCount(forPath: "/gated/jpeg/photo.jpg") == 1)
        }
    }

    @Test func theLastCallerToCancelStopsTheTransfer() async throws {
        try await withTestHTTPServer { server in
            let gate = ImageGate(server: server)
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let url = server.url("/gated/jpeg/photo.jpg")
            let tokens = (0..<3).map { _ in downloader.downloadImage(url: url) { _ in } }
            for _ in 0..<200 where gate.waitingCount == 0 { try await Task.sleep(for: .milliseconds(25)) }
            #expect(downloader.currentDownloadCount == 1)
            for token in tokens { token.cancel() }
            for _ in 0..<200 where downloader.currentDownloadCount > 0 { try await Task.sleep(for: .milliseconds(25)) }
            #expect(downloader.currentDownloadCount == 0)
            #expect(tokens.allSatisfy { $0.isCancelled })
            gate.open()
        }
    }

    @Test func aHighPriorityCallerRaisesTheTransferItJoins() async throws {
        try await withTestHTTPServer { server in
            let gate = ImageGate(server: server)
            // The order in which the server sees the waiting requests.
            let arrivals = Locked<[String]>([])
            server.routes.registerPrefix("/ordered/") { request, responder in
                arrivals.withLock { $0.append(String(request.remainder)) }
                let entry = TestHTTPFixtureCatalog.shared.entry(request.remainder)
                responder.respond(status: 200, headers: [("Content-Type", entry?.contentType ?? "image/png")], body: entry?.bytes ?? [])
            }
            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = 1
            let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let finished = Locked(0)
            func start(_ path: String, _ options: ImageOptions) {
                downloader.downloadImage(url: server.url(path), options: options) { _ in finished.withLock { $0 += 1 } }
            }
            // The one slot is held at the gate; the others wait in the downloader.
            start("/gated/jpeg/photo.jpg", [])
            for _ in 0..<200 where gate.waitingCount == 0 { try await Task.sleep(for: .milliseconds(25)) }
            start("/ordered/png/gray8.png", .lowPriority)
            start("/ordered/jpeg/gray.jpg", [])
            start("/ordered/png/gray8.png", .highPriority)
            gate.open()
            #expect(await waitUntil(timeout: .seconds(30)) { finished.withLock { $0 } == 4 })
            #expect(arrivals.withLock { $0 } == ["png/gray8.png", "jpeg/gray.jpg"], "the raised transfer goes first, and once")
        }
    }

    @Test func aCancelStormCompletesEveryCallerExactlyOnce() async throws {
        try await withTestHTTPServer { server in
            registerSlowImage(on: server, delay: 20)
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let calls = Locked<[Int: Int]>([:])
            var tokens: [ImageDownloadToken] = []
            let count = 2_000
            for index in 0..<count {
                // 50 distinct URLs, so that transfers are shared by about 40 callers each.
                let url = server.url("/slow/jpeg/photo.jpg?copy=\(index % 50)")
                tokens.append(downloader.downloadImage(url: url) { _ in
                    calls.withLock { $0[index, default: 0] += 1 }
                })
                if Int.random(in: 0..<3) == 0, let victim = tokens.randomElement() { victim.cancel() }
            }
            for token in tokens where Bool.random() { token.cancel() }
            // Waits without blocking a thread of the shared pool, which the other tests need.
            #expect(await waitUntil(timeout: .seconds(60)) { calls.withLock { $0.count } == count })
            let counts = calls.withLock { $0 }
            #expect(counts.count == count)
            #expect(counts.values.allSatisfy { $0 == 1 })
            for _ in 0..<200 where downloader.currentDownloadCount > 0 { try await Task.sleep(for: .milliseconds(25)) }
            #expect(downloader.currentDownloadCount == 0)
            if case .success(let engine) = downloader.curlEngine {
                for _ in 0..<200 where engine.liveCounters.contexts > 0 { try await Task.sleep(for: .milliseconds(25)) }
                #expect(engine.liveCounters.contexts == 0)
            }
        }
    }

    @Test func errorsNameTheirKind() async throws {
        try await withTestHTTPServer { server in
            // A short stall timeout for the stalling route only: the other routes answer at once, but a loaded machine
            // (or a sanitizer) may take longer than a second to.
            var stalling = ImageDownloaderConfig()
            stalling.stallTimeout = 1
            let stallingDownloader = ImageDownloader(config: stalling, coder: ImageCoderRegistry.shared)
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer {
                downloader.invalidate()
                stallingDownloader.invalidate()
            }
            let cases: [(String, WebImageError.Code)] = [
                ("/status/404", .invalidDownloadStatusCode),
                ("/status/500", .invalidDownloadStatusCode),
                ("/generated?bytes=100", .badImageData),
                ("/status/200", .badImageData),
                ("/redirect-loop", .tooManyRedirects),
                ("/stall?after=10", .timedOut),
                ("/huge-length", .responseTooLarge),
            ]
            for (path, code) in cases {
                let result = await download(path.hasPrefix("/stall") ? stallingDownloader : downloader, server.url(path))
                guard case .failure(let error) = result else {
                    Issue.record("\(path) succeeded")
                    continue
                }
                #expect(error.code == code, "\(path): \(error)")
                #expect(error.message.contains("127.0.0.1"), "\(path): the message names the URL: \(error.message)")
            }
            let refused = await download(downloader, URL(string: "ftp://127.0.0.1/a.png")!)
            #expect(refused.failureCode == .unsupportedScheme)
        }
    }

    @Test func aConditionalRequestAnsweredNotModifiedFailsWithCacheNotModified() async throws {
        try await withTestHTTPServer { server in
            let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            let first = try await download(downloader, server.url("/etag/jpeg/photo.jpg")).get()
            var context = ImageContext()
            context.revalidation = ImageRevalidation(entityTag: first.response?.value(forHeader: "ETag"))
            let second = await download(downloader, server.url("/etag/jpeg/photo.jpg"), context: context)
            #expect(second.failureCode == .cacheNotModified)
        }
    }

    @Test func theRequestModifierCanRefuse() async {
        let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
        defer { downloader.invalidate() }
        var context = ImageContext()
        context.requestModifier = { _ in nil }
        let result = await download(downloader, URL(string: "http://127.0.0.1:9/a.png")!, context: context)
        #expect(result.failureCode == .invalidDownloadOperation)
    }

    @Test func invalidateCompletesEveryCallerWithCancelled() async throws {
        try await withTestHTTPServer { server in
            // The stalled transfers must still run when the test invalidates, however late a loaded machine runs it.
            let downloader = ImageDownloader(config: .patientWithGates, coder: ImageCoderRegistry.shared)
            let results = Locked<[WebImageError.Code?]>([])
            for index in 0..<20 {
                downloader.downloadImage(url: server.url("/stall?after=10&n=\(index)")) { result in
                    results.withLock { $0.append(result.failureCode) }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            downloader.invalidate()
            #expect(await waitUntil(timeout: .seconds(10)) { results.withLock { $0.count } == 20 })
            #expect(results.withLock { $0.allSatisfy { $0 == .cancelled } })
            #expect(downloader.currentDownloadCount == 0)
        }
    }
}

extension Result where Failure == WebImageError {
    var failureCode: WebImageError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
