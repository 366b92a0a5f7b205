import Benchmark
import BenchmarkPairs
import Foundation
import WebImage

/// A warm load: the 1,000 URLs of the cold load, all on disk and none in memory, through `ImageManager.loadImage`,
/// against reading each entry's file (the same bytes) and decoding it with TurboJPEG called directly, one after
/// another on this thread. The memory tier is emptied before each pair, outside the timing; the disk tier is
/// filled in the setup hook and removed in the teardown.
///
/// Records each side's time and their ratio, this process's CPU time per image of each side, and the throughput
/// ratio.
func warmLoadBenchmark() {
    let count = 1_000
    var configuration = Pairs.configuration(
        cpu: true,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 30,
        setup: WarmLoadFixture.setUp(count: count),
        teardown: WarmLoadFixture.tearDown
    )
    configuration.metrics.append(Pairs.throughput)
    Benchmark(
        "Warm load 1000 x 256 px JPEG from disk: ours vs read + TurboJPEG, alternating",
        configuration: configuration
    ) { benchmark in
        let fixture = WarmLoadFixture.slot.get()
        let clock = ContinuousClock()
        for _ in benchmark.scaledIterations {
            fixture.scratch.cache.memoryCache.removeAll()
            var oursTime = Duration.zero
            var baselineTime = Duration.zero
            Pairs.measure(benchmark, units: count) {
                oursTime = clock.measure {
                    fixture.manager.loadAll(fixture.urls, expecting: .disk)
                }
            } baseline: {
                baselineTime = clock.measure {
                    for path in fixture.paths { blackHole(RawJPEG.readAndDecode(path)) }
                }
            }
            Pairs.recordThroughput(benchmark, ours: oursTime, baseline: baselineTime)
        }
    }
}

/// A cache whose disk tier holds the JPEG under 1,000 URL keys, a manager over it, and the entries' file paths.
/// The manager's loader is a downloader that is never asked: the URLs name a port nothing listens on, so a load
/// that missed the disk would fail the benchmark.
final class WarmLoadFixture: Sendable {
    static let slot = FixtureSlot<WarmLoadFixture>()

    let scratch: ScratchCache
    let manager: ImageManager
    let urls: [URL]
    let paths: [String]
    private let downloader: ImageDownloader

    private init(count: Int) throws {
        scratch = ScratchCache("warm")
        downloader = ImageDownloader(config: ImageDownloaderConfig(), coder: ImageCoderRegistry.shared)
        manager = ImageManager(cache: scratch.cache, loader: downloader)
        urls = (0..<count).map { index in
            guard let url = URL(string: "http://127.0.0.1:9/files/photo-256.jpg?n=\(index)") else { fatalError("not a URL") }
            return url
        }
        let jpeg = BenchmarkInput.photo256Data()
        let disk = scratch.cache.diskCache
        var paths: [String] = []
        for url in urls {
            let key = manager.cacheKey(for: url)
            try disk.setData(jpeg, forKey: key)
            paths.append(disk.path(forKey: key))
        }
        self.paths = paths
    }

    /// A setup hook that fills a new cache with `count` entries.
    static func setUp(count: Int) -> @Sendable () async throws -> Void {
        {
            slot.replace(with: try WarmLoadFixture(count: count))?.close()
        }
    }

    /// The teardown hook: removes the cache's directory.
    static let tearDown: @Sendable () async throws -> Void = {
        slot.replace(with: nil)?.close()
    }

    private func close() {
        downloader.invalidate()
        scratch.remove()
    }
}
