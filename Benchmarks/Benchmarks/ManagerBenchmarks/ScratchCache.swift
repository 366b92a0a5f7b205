import Foundation
import WebImage

/// An ImageCache with the default configuration and the shared coder registry, in a directory of its own under the
/// system's temporary directory, or under `WEBIMAGE_BENCHMARK_CACHE_ROOT` when that is set (to compare file
/// systems: a tmpfs against the disk, say).
final class ScratchCache: Sendable {
    /// The directory holding the cache's own directory; ``remove()`` deletes it.
    let root: URL
    let cache: ImageCache

    init(_ label: String) {
        let parent = ProcessInfo.processInfo.environment["WEBIMAGE_BENCHMARK_CACHE_ROOT"]
            .map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.temporaryDirectory
        root = parent.appendingPathComponent("webimage-manager-benchmark-\(label)-\(UUID().uuidString)", isDirectory: true)
        cache = ImageCache(namespace: "images", root: root, coder: ImageCoderRegistry.shared)
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
