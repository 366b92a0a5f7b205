import Foundation
import Logging
import Testing
import WebImage
import WebImageCore
import WebImageTestSupport

/// The manager's events, per-load metrics and log lines, over a real cache, downloader and coders.
@Suite struct ImageManagerEventsTests {
    private let photo = "/image/jpeg/photo.jpg"

    /// What a stream received, read without waiting.
    private final class EventLog: Sendable {
        private final class Store: Sendable {
            let events = Locked<[ImageManagerEvent]>([])
        }

        private let store = Store()
        private let task: Task<Void, Never>

        init(_ stream: AsyncStream<ImageManagerEvent>) {
            let store = store
            task = Task { for await event in stream { store.events.withLock { $0.append(event) } } }
        }

        deinit { task.cancel() }

        var all: [ImageManagerEvent] { store.events.withLock { $0 } }

        /// The events' names, in order.
        var names: [String] {
            all.map { event in
                switch event {
                case .loadStarted: "loadStarted"
                case .cacheHit(_, _, let type): "cacheHit(\(type))"
                case .cacheMiss: "cacheMiss"
                case .downloadStarted: "downloadStarted"
                case .downloadFinished(_, _, let error): error == nil ? "downloadFinished" : "downloadFailed"
                case .decoded: "decoded"
                case .stored(_, _, let type): "stored(\(type))"
                case .storeFailed: "storeFailed"
                case .loadFinished(let report): (try? report.result.get()).map { "loadFinished(\($0))" } ?? "loadFailed"
                case .dataLoadStarted: "dataLoadStarted"
                case .dataLoadFinished(let report): (try? report.result.get()).map { "dataLoadFinished(\($0))" } ?? "dataLoadFailed"
                }
            }
        }

        var finished: [ImageLoadReport] {
            all.compactMap { if case .loadFinished(let report) = $0 { report } else { nil } }
        }
    }

    @Test func aNetworkLoadReportsEachStepAndCarriesItsMetrics() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let log = EventLog(harness.manager.events())
            let url = server.url(photo)
            let loaded = try await harness.load(url, options: .waitStoreCache).get()
            #expect(await eventually { log.finished.count == 1 })
            #expect(log.names == [
                "loadStarted", "cacheMiss", "downloadStarted", "downloadFinished", "decoded", "stored(all)", "loadFinished(none)",
            ])
            let metrics = try #require(loaded.metrics)
            let load = try #require(metrics.load)
            let decode = try #require(metrics.decode)
            #expect(metrics.cacheLookup != nil && metrics.transform == nil && metrics.store != nil)
            #expect(metrics.download?.bytesReceived == Int64(Fixtures.data("jpeg/photo.jpg").count))
            #expect(decode > .zero && decode < load && load < metrics.total)
            #expect(log.finished.first?.metrics == metrics, "the event carries the result's metrics")

            // Observed, a memory hit takes the whole path and still completes during the call.
            let during = Locked(false)
            let inCall = Locked(true)
            harness.manager.loadImage(url: url) { _ in during.withLock { $0 = inCall.withLock { $0 } } }
            inCall.withLock { $0 = false }
            #expect(during.withLock { $0 }, "a memory hit completes during the call")
            #expect(await eventually { log.finished.count == 2 })
            #expect(log.names.suffix(3) == ["loadStarted", "cacheHit(memory)", "loadFinished(memory)"])
        }
    }

    @Test func theAsyncFormHasMetricsAndACancelledLoadReportsItsEnd() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let log = EventLog(harness.manager.events())
            let loaded = try await harness.manager.loadImage(url: server.url(photo))
            #expect(loaded.metrics?.load != nil)

            // A body that never ends: only the cancel can finish this load, however slow the machine.
            let gated = server.url("/stall?after=1024")
            let operation = harness.manager.loadImage(url: gated) { _ in }
            #expect(await eventually { log.names.contains("downloadStarted") && log.names.filter { $0 == "downloadStarted" }.count == 2 })
            operation.cancel()
            #expect(await eventually { log.finished.count == 2 })
            let cancelled = try #require(log.finished.last)
            #expect(cancelled.url == gated)
            #expect(throws: WebImageError.self) { try cancelled.result.get() }
            if case .failure(let error) = cancelled.result { #expect(error.code == .cancelled) }
        }
    }

    @Test func aDataLoadReportsItsStartAndEndAroundTheImageLoadItMakes() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let log = EventLog(harness.manager.events())
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(square: 64)
            let url = server.url(photo)
            _ = try await harness.manager.loadImageData(url: url, options: .waitStoreCache, context: context)
            #expect(await eventually { log.names.last == "dataLoadFinished(none)" })
            let names = log.names
            #expect(names.first == "dataLoadStarted")
            #expect(names.contains("downloadStarted") && names.contains("loadFinished(none)"), "\(names)")

            // Observed, an encoded memory hit is reported too (and still completes during the call).
            let during = Locked(false)
            let inCall = Locked(true)
            harness.manager.loadImageData(url: url, context: context) { _ in during.withLock { $0 = inCall.withLock { $0 } } }
            inCall.withLock { $0 = false }
            #expect(during.withLock { $0 })
            #expect(await eventually { log.names.suffix(3) == ["dataLoadStarted", "cacheHit(memory)", "dataLoadFinished(memory)"] })
        }
    }

    @Test func logLinesCarryRedactedURLsAndAFailedStoreIsAWarning() async throws {
        try await withTestHTTPServer { server in
            let records = LogRecords()
            var logger = Logger(label: "test") { _ in RecordingLogHandler(records) }
            logger.logLevel = .debug
            let harness = ManagerHarness(logger: logger)
            var components = URLComponents(url: server.url(photo), resolvingAgainstBaseURL: false)!
            components.user = "user"
            components.password = "secret"
            let url = try #require(components.url)
            _ = try await harness.load(url, options: .waitStoreCache).get()
            let lines = records.all
            #expect(lines.map(\.message) == [
                "load started", "cache miss", "download started", "download finished", "decoded", "stored", "load finished",
            ])
            #expect(lines.allSatisfy { $0.level == .debug })
            let text = lines.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            #expect(!text.contains("secret"), "\(text)")
            #expect(text.contains("user:***@"))
            #expect(lines.last?.metadata["cache_type"] == "none")
            #expect(lines.last?.metadata["duration_ms"] != nil)

            // A logger at warning logs only what goes wrong with the cache.
            let warnings = LogRecords()
            var quiet = Logger(label: "test") { _ in RecordingLogHandler(warnings) }
            quiet.logLevel = .warning
            let failing = MockImageCache(looksUpMemoryDuringCall: true)
            failing.failStores(with: WebImageError(.diskIO, "disk full"))
            let manager = ImageManager(cache: failing, loader: harness.downloader, logger: quiet)
            _ = try await manager.loadImage(url: server.url(photo), options: .waitStoreCache)
            #expect(warnings.all.map(\.message) == ["store failed"])
            #expect(warnings.all.first?.level == .warning && warnings.all.first?.metadata["error_code"] == "diskIO")
        }
    }
}
