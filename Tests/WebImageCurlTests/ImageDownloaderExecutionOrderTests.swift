import Foundation
import Testing
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// Registers `/held/<name>`: each request waits at the server until the test answers it, so that a test decides
/// when each transfer ends and sees in which order they started.
private final class HeldRequests: Sendable {
    private let held = Locked<[(name: String, responder: TestHTTPResponder)]>([])
    private let body: [UInt8]

    init(server: TestHTTPServer) throws {
        body = try #require(TestHTTPFixtureCatalog.shared.entry("png/gray8.png")).bytes
        server.routes.registerPrefix("/held/") { [self] request, responder in
            held.withLock { $0.append((String(request.remainder), responder)) }
        }
    }

    /// The names of the requests waiting, in the order they came.
    var waiting: [String] { held.withLock { $0.map(\.name) } }

    /// Waits until a request waits (at most 30 s); returns those waiting then, in the order they came.
    func next() async -> [String] {
        _ = await waitUntil(timeout: .seconds(30)) { !self.waiting.isEmpty }
        return waiting
    }

    /// Answers the request named `name`.
    func answer(_ name: String) {
        let responder = held.withLock { held -> TestHTTPResponder? in
            guard let index = held.firstIndex(where: { $0.name == name }) else { return nil }
            return held.remove(at: index).responder
        }
        guard let responder else { return }
        let body = body
        responder.eventLoop.execute {
            responder.respond(status: 200, headers: [("Content-Type", "image/png")], body: body)
        }
    }
}

/// What the requests of a test saw, from the downloader's thread.
private final class Record: Sendable {
    private let state = Locked<(entered: Bool, finished: [String], failures: Int)>((false, [], 0))

    func enter() { state.withLock { $0.entered = true } }

    /// Waits until ``enter()`` has run (at most 30 s); returns whether it has.
    func waitForEntry() async -> Bool {
        await waitUntil(timeout: .seconds(30)) { self.state.withLock { $0.entered } }
    }

    /// Waits until `count` requests have finished (at most 30 s); returns their names in the order they did.
    func waitForFinished(_ count: Int) async -> [String] {
        _ = await waitUntil(timeout: .seconds(30)) { self.state.withLock { $0.finished.count + $0.failures >= count } }
        return finishedNames
    }

    func finished(_ name: String, _ result: Result<DownloadedImageData, WebImageError>) {
        state.withLock { state in
            if case .success = result { state.finished.append(name) } else { state.failures += 1 }
        }
    }

    var finishedNames: [String] { state.withLock { $0.finished } }
    var failures: Int { state.withLock { $0.failures } }
}

@Suite struct ImageDownloaderExecutionOrderTests {
    /// With one slot and last in, first out, the first of requests made back to back starts at once, as the first
    /// operation added to an operation queue does; the others wait, and each time the slot frees the newest of
    /// them starts. Seven requests, then seven more once the seventh has started: they run 1, 7, 14 to 8, 6 to 2.
    @Test func lifoStartsTheFirstRequestAtOnceThenTheNewest() async throws {
        try await withTestHTTPServer { server in
            let held = try HeldRequests(server: server)
            var config = ImageDownloaderConfig.patientWithGates
            config.maxConcurrentDownloads = 1
            config.executionOrder = .lifo
            let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            var context = ImageContext()
            // Completions run on the downloader's thread, in the order the transfers end.
            context.callbackQueue = .inline
            let record = Record()
            func request(_ name: String) {
                downloader.downloadData(url: server.url("/held/\(name)"), context: context) { result in
                    record.finished(name, result)
                }
            }

            // The downloader's thread is held in a completion while the first seven requests are made, so that it
            // takes them in one batch, as it does when a list asks for its rows at once.
            let holding = DispatchSemaphore(value: 0)
            downloader.downloadData(url: server.url("/image/png/gray8.png"), context: context) { _ in
                record.enter()
                _ = holding.wait(timeout: .now() + 30)
            }
            #expect(await record.waitForEntry())
            for index in 1...7 { request("\(index)") }
            holding.signal()

            var started: [String] = []
            for _ in 0..<14 {
                let waiting = await held.next()
                guard !waiting.isEmpty else { break }
                #expect(waiting.count == 1, "one slot: one request at the server at a time")
                let name = waiting[0]
                started.append(name)
                if name == "7" { for index in 8...14 { request("\(index)") } }
                held.answer(name)
            }
            let expected = ["1", "7", "14", "13", "12", "11", "10", "9", "8", "6", "5", "4", "3", "2"]
            #expect(started == expected)
            #expect(await record.waitForFinished(14) == expected)
            #expect(record.failures == 0)
        }
    }

    /// First in, first out keeps the order of the requests, with the first started at once as well.
    @Test func fifoRunsRequestsInTheOrderTheyCame() async throws {
        try await withTestHTTPServer { server in
            let held = try HeldRequests(server: server)
            var config = ImageDownloaderConfig.patientWithGates
            config.maxConcurrentDownloads = 1
            let downloader = ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
            defer { downloader.invalidate() }
            var context = ImageContext()
            context.callbackQueue = .inline
            let record = Record()
            for index in 1...5 {
                downloader.downloadData(url: server.url("/held/\(index)"), context: context) { result in
                    record.finished("\(index)", result)
                }
            }
            var started: [String] = []
            for _ in 0..<5 {
                guard let name = await held.next().first else { break }
                started.append(name)
                held.answer(name)
            }
            #expect(started == ["1", "2", "3", "4", "5"])
            #expect(await record.waitForFinished(5) == started)
        }
    }
}
