import Foundation
import WebImage

/// An ImageCache with the default configuration and the shared coder registry, in a directory of its own under the
/// system's temporary directory.
final class ScratchCache: Sendable {
    /// The directory holding the cache's own directory; ``remove()`` deletes it.
    let root: URL
    let cache: ImageCache

    init(_ label: String) {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-benchmark-\(label)-\(UUID().uuidString)", isDirectory: true)
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
