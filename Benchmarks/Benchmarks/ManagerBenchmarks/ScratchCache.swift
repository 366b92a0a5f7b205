import CoreMetrics
import Foundation
import Logging
import WebImage

/// An ImageCache with the default configuration and the shared coder registry, in a directory of its own under the
/// system's temporary directory, or under `WEBIMAGE_BENCHMARK_CACHE_ROOT` when that is set (to compare file
/// systems: a tmpfs against the disk, say).
final class ScratchCache: Sendable {
    /// The directory holding the cache's own directory; ``remove()`` deletes it.
    let root: URL
    let cache: ImageCache

    /// A fresh cache; `logger` and `metricsFactory` as ``ImageCache``'s own parameters.
    init(_ label: String, logger: Logger? = nil, metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        let parent = ProcessInfo.processInfo.environment["WEBIMAGE_BENCHMARK_CACHE_ROOT"]
            .map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.temporaryDirectory
        root = parent.appendingPathComponent("webimage-manager-benchmark-\(label)-\(UUID().uuidString)", isDirectory: true)
        cache = ImageCache(
            namespace: "images", root: root, coder: ImageCoderRegistry.shared, metricsFactory: metricsFactory, logger: logger
        )
    }

    /// Fails the benchmark unless the disk tier holds `count` entries (waiting for its IO queue).
    func check(expectingDiskEntries count: Int) {
        let stored = cache.diskCache.totalCount
        precondition(stored == count, "the disk cache holds \(stored) entries, not \(count)")
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
