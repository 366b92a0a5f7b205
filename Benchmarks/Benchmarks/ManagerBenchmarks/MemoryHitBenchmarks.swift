import Benchmark
import BenchmarkPairs
import CoreMetrics
import Foundation
import Logging
import WebImage

/// A memory hit through `ImageManager.loadImage` against MemoryCache's own look-up
/// (`cache.memoryCache.image(forKey:)`) for the same key, 10,000 of each per pair, in two forms:
/// - the callback form, which completes during the call, on the calling thread;
/// - the async form, `try await manager.loadImage(url:)`, awaited in the benchmark's task.
///
/// The manager derives the key from the URL on every call, as its callers have it do; the look-up is given the
/// key string ready-made. The cache holds the one 256 x 192 image.
func memoryHitBenchmarks() {
    let hits = 10_000
    let fixture = MemoryHitFixture()
    Benchmark(
        "Memory hit x \(hits), loadImage callback: ours vs MemoryCache.image(forKey:), alternating",
        configuration: Pairs.configuration
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            Pairs.measure(benchmark) {
                fixture.hitThroughCallback(hits)
            } baseline: {
                fixture.hitMemoryCache(hits)
            }
        }
    }
    Benchmark(
        "Memory hit x \(hits), loadImage async: ours vs MemoryCache.image(forKey:), alternating",
        configuration: Pairs.configuration
    ) { benchmark async in
        for _ in benchmark.scaledIterations {
            await Pairs.measureAwaiting(benchmark) {
                await fixture.hitThroughAsync(hits)
            } baseline: {
                fixture.hitMemoryCache(hits)
            }
        }
    }
}

/// The cost of observing a manager when nothing is listening: a memory hit through a manager given a logger over
/// swift-log's no-op handler and swift-metrics' no-op factory, against one given neither, 10,000 of each per pair,
/// over the same cache. The observed manager makes no metric and writes no line; the pair shows what asking costs.
func observedMemoryHitBenchmark() {
    let hits = 10_000
    let plain = MemoryHitFixture()
    let observed = MemoryHitFixture(sharing: plain)
    Benchmark(
        "Memory hit x \(hits), loadImage callback: with a no-op logger and metrics vs without, alternating",
        configuration: Pairs.configuration
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            Pairs.measure(benchmark) {
                observed.hitThroughCallback(hits)
            } baseline: {
                plain.hitThroughCallback(hits)
            }
        }
    }
}

/// A manager whose cache holds one image in memory, its URL and its key. The disk tier's directory is never
/// created: nothing is written to disk, and memory hits do not read it.
private final class MemoryHitFixture: Sendable {
    let manager: ImageManager
    let cache: ImageCache
    let url: URL
    let key: String

    init() {
        guard let url = URL(string: "https://images.example.com/photos/000042/thumbnail-256px.jpg") else {
            fatalError("not a URL")
        }
        guard let pixels = try? PixelBuffer(width: 256, height: 192, color: .white) else {
            fatalError("cannot make the benchmark image")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-benchmark-memory-\(UUID().uuidString)", isDirectory: true)
        cache = ImageCache(
            memoryCache: MemoryCache(), diskCache: DiskCache(directory: directory), coder: ImageCoderRegistry.shared
        )
        manager = ImageManager(cache: cache, loader: ImageDownloader(config: ImageDownloaderConfig(), coder: ImageCoderRegistry.shared))
        self.url = url
        key = manager.cacheKey(for: url)
        cache.memoryCache.setImage(Image(pixels: pixels, hasAlpha: false), forKey: key)
        precondition(manager.cachedImage(for: url) != nil, "the manager does not find the image under its key")
    }

    /// A second manager over `other`'s cache, given a logger over swift-log's no-op handler and swift-metrics'
    /// no-op factory.
    init(sharing other: MemoryHitFixture) {
        cache = other.cache
        url = other.url
        key = other.key
        manager = ImageManager(
            cache: cache,
            loader: ImageDownloader(config: ImageDownloaderConfig(), coder: ImageCoderRegistry.shared),
            logger: Logger(label: "benchmark") { _ in SwiftLogNoOpLogHandler() },
            metricsFactory: NOOPMetricsHandler.instance
        )
        precondition(manager.cachedImage(for: url) != nil, "the manager does not find the image under its key")
    }

    /// `count` loads through the callback form; each must complete during the call, from memory.
    func hitThroughCallback(_ count: Int) {
        for _ in 0..<count {
            let operation = manager.loadImage(url: url, completion: Self.expectMemoryHit)
            precondition(operation.isFinished, "the memory hit did not complete during the call")
        }
    }

    /// `count` loads through the async form, one after another.
    func hitThroughAsync(_ count: Int) async {
        for _ in 0..<count {
            do {
                let loaded = try await manager.loadImage(url: url)
                precondition(loaded.cacheType == .memory, "the load came from \(loaded.cacheType), not memory")
                blackHole(loaded.image)
            } catch {
                fatalError("the memory hit failed: \(error)")
            }
        }
    }

    /// `count` look-ups in the memory tier.
    func hitMemoryCache(_ count: Int) {
        let memory = cache.memoryCache
        for _ in 0..<count {
            guard let image = memory.image(forKey: key) else { fatalError("the memory tier lost the image") }
            blackHole(image)
        }
    }

    private static let expectMemoryHit: ImageLoadResultHandler = { result in
        guard case .success(let loaded) = result, loaded.cacheType == .memory else {
            fatalError("the load was not a memory hit: \(result)")
        }
        blackHole(loaded.image)
    }
}
