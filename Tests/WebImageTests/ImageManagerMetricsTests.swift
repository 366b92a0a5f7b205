import CoreMetrics
import Foundation
import MetricsTestKit
import Testing
import WebImage
import WebImageTestSupport

/// The metrics the manager, its cache and its downloader report through swift-metrics (``ImageMetrics``), read back
/// from swift-metrics' test kit, over the loopback server.
@Suite struct ImageManagerMetricsTests {
    private let photo = "/image/jpeg/photo.jpg"

    private func count(_ metrics: TestMetrics, _ label: String, _ dimensions: [(String, String)] = []) -> Int64 {
        metrics.counterTotal(label: label, dimensions: dimensions)
    }

    private func timings(_ metrics: TestMetrics, _ stage: String) -> [Int64] {
        (try? metrics.expectTimer(ImageMetrics.stageDuration, [("stage", stage)]).values) ?? []
    }

    private func gauge(_ metrics: TestMetrics, _ label: String, tier: String) -> Double? {
        try? metrics.expectGauge(label, [("tier", tier)]).lastValue
    }

    @Test func aNetworkLoadThenAMemoryHitThenADiskHitAreCountedBySource() async throws {
        try await withTestHTTPServer { server in
            let metrics = TestMetrics()
            let harness = ManagerHarness(metricsFactory: metrics)
            let url = server.url(photo)
            let bytes = Fixtures.data("jpeg/photo.jpg").count

            _ = try await harness.load(url, options: .waitStoreCache).get()
            #expect(count(metrics, ImageMetrics.loads, [("source", "network"), ("kind", "image")]) == 1)
            #expect(count(metrics, ImageMetrics.decodes) == 1)
            #expect(timings(metrics, "decode").count == 1)
            // The downloader's part: the bytes, the queue and transfer times, and nothing left in flight.
            #expect(count(metrics, ImageMetrics.downloadedBytes) == Int64(bytes))
            #expect(timings(metrics, "queue").count == 1)
            #expect(timings(metrics, "download").count == 1)
            let inFlight = try metrics.expectMeter(ImageMetrics.transfersInFlight)
            #expect(inFlight.values.max() == 1 && inFlight.lastValue == 0, "\(inFlight.values)")
            // The cache's part: the original written as it came (no encode), and each tier's size.
            #expect(timings(metrics, "disk_write").count == 1)
            #expect(count(metrics, ImageMetrics.encodes) == 0)
            #expect(gauge(metrics, ImageMetrics.cacheEntries, tier: "memory") == 1)
            #expect(gauge(metrics, ImageMetrics.cacheEntries, tier: "disk") == 1)
            #expect((gauge(metrics, ImageMetrics.cacheBytes, tier: "disk") ?? 0) >= Double(bytes))
            #expect((gauge(metrics, ImageMetrics.cacheBytes, tier: "memory") ?? 0) > 0)

            // A memory hit completes during the call and is counted all the same.
            let hit = harness.manager.loadImage(url: url) { _ in }
            #expect(hit.isFinished)
            _ = try await harness.manager.loadImage(url: url)
            #expect(count(metrics, ImageMetrics.loads, [("source", "memory"), ("kind", "image")]) == 2)

            // A disk hit reads and decodes the stored bytes.
            harness.cache.memoryCache.removeAll()
            let fromDisk = try await harness.load(url).get()
            #expect(fromDisk.cacheType == .disk)
            #expect(count(metrics, ImageMetrics.loads, [("source", "disk"), ("kind", "image")]) == 1)
            #expect(timings(metrics, "disk_read").count == 1)
            #expect(count(metrics, ImageMetrics.decodes) == 2)
            #expect(count(metrics, ImageMetrics.loadFailures) == 0)
        }
    }

    @Test func failuresAreCountedByCodeCancellationsIncluded() async throws {
        try await withTestHTTPServer { server in
            let metrics = TestMetrics()
            let harness = ManagerHarness(metricsFactory: metrics)
            let missing = await harness.load(server.url("/status/404"))
            #expect(throws: WebImageError.self) { try missing.get() }
            #expect(count(metrics, ImageMetrics.loadFailures, [("code", "invalidDownloadStatusCode")]) == 1)

            // A body that never ends: only the cancel ends this load.
            let operation = harness.manager.loadImage(url: server.url("/stall?after=1024")) { _ in }
            #expect(await waitUntil(timeout: .seconds(10)) { server.requestCount(forPath: "/stall") == 1 })
            operation.cancel()
            #expect(count(metrics, ImageMetrics.loadFailures, [("code", "cancelled")]) == 1)
            #expect(await waitUntil(timeout: .seconds(10)) { (try? metrics.expectMeter(ImageMetrics.transfersInFlight).lastValue) == 0 })
            #expect(count(metrics, ImageMetrics.loads) == 0)
        }
    }

    @Test func encodedVariantsCountTheirEncodesAndTheirTier() async throws {
        try await withTestHTTPServer { server in
            let metrics = TestMetrics()
            let harness = ManagerHarness(metricsFactory: metrics)
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(square: 64)
            let url = server.url(photo)
            let made = try await harness.manager.loadImageData(url: url, options: .waitStoreCache, context: context)
            #expect(made.cacheType == .none)
            #expect(count(metrics, ImageMetrics.loads, [("source", "network"), ("kind", "data")]) == 1)
            #expect(count(metrics, ImageMetrics.loads, [("source", "network"), ("kind", "image")]) == 1)
            #expect(count(metrics, ImageMetrics.encodes) == 1)
            #expect(timings(metrics, "encode").count == 1)
            #expect(gauge(metrics, ImageMetrics.cacheEntries, tier: "encoded_memory") == 1)
            #expect(gauge(metrics, ImageMetrics.cacheBytes, tier: "encoded_memory") == Double(made.data.count))

            // The result says where the time went: the image load's steps, then the encode and the store.
            let steps = try #require(made.metrics)
            #expect(steps.download != nil && steps.decode != nil && steps.encode != nil && steps.store != nil)
            #expect(steps.encode! < steps.total && steps.cacheLookup != nil)

            let again = try await harness.manager.loadImageData(url: url, context: context)
            #expect(again.cacheType == .memory)
            #expect(again.metrics == nil, "an encoded memory hit has no metrics")

            // From disk: the look-up, and nothing made.
            harness.manager.encodedMemoryCache.removeAll()
            let fromDisk = try await harness.manager.loadImageData(url: url, context: context)
            #expect(fromDisk.cacheType == .disk)
            #expect(fromDisk.metrics?.cacheLookup != nil && fromDisk.metrics?.encode == nil && fromDisk.metrics?.download == nil)
            #expect(count(metrics, ImageMetrics.loads, [("source", "disk"), ("kind", "data")]) == 1)
            #expect(count(metrics, ImageMetrics.loads, [("source", "memory"), ("kind", "data")]) == 1)
            #expect(count(metrics, ImageMetrics.encodes) == 1, "a hit encodes nothing")
        }
    }

    @Test func tiersCountTheirEvictions() async throws {
        let metrics = TestMetrics()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var disk = DiskCache.Configuration()
        disk.maxSize = 64 * 1024
        let cache = ImageCache(
            memoryCache: MemoryCache(countLimit: 2),
            diskCache: DiskCache(directory: directory, configuration: disk),
            coder: ImageCoderRegistry.makeDefault(),
            metricsFactory: metrics
        )
        let image = Image(pixels: try PixelBuffer(width: 8, height: 8, color: .white), hasAlpha: false)
        let data = Data(repeating: 7, count: 20 * 1024)
        for index in 0..<5 {
            let stored = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WebImageError>, Never>) in
                cache.store(image, data: data, key: "key-\(index)") { continuation.resume(returning: $0) }
            }
            try stored.get()
        }
        #expect(count(metrics, ImageMetrics.evictions, [("tier", "memory")]) == 3)
        #expect(gauge(metrics, ImageMetrics.cacheEntries, tier: "memory") == 2)
        let diskEvictions = count(metrics, ImageMetrics.evictions, [("tier", "disk")])
        #expect(diskEvictions >= 2, "five 20 KiB entries under a 64 KiB limit")
        #expect(gauge(metrics, ImageMetrics.cacheEntries, tier: "disk") == Double(5 - diskEvictions))
    }

    @Test func eachManagerReportsToItsOwnFactory() async throws {
        // Nothing goes through a process-wide backend: a manager over the no-op factory reports nowhere, one over
        // a test factory reports its own loads only.
        try await withTestHTTPServer { server in
            let harness = ManagerHarness(metricsFactory: NOOPMetricsHandler.instance)
            _ = try await harness.load(server.url(photo)).get()
            let metrics = TestMetrics()
            let other = ManagerHarness(metricsFactory: metrics)
            _ = try await other.load(server.url(photo)).get()
            #expect(count(metrics, ImageMetrics.loads) == 1, "only the load of the manager that reports to it")
        }
    }
}
