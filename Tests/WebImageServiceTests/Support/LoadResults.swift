import Foundation
import WebImageCore

/// The final results of loads, by URL, as their completions deliver them.
final class LoadResults: Sendable {
    private let results = Locked<[URL: Result<ImageLoadResult, WebImageError>]>([:])

    /// Keeps `result` for `url` unless it is the first of two results of a `refreshCached` load.
    func record(_ result: Result<ImageLoadResult, WebImageError>, for url: URL) {
        if case .success(let loaded) = result, !loaded.isFinal { return }
        results.withLock { $0[url] = result }
    }

    /// The final result for `url`, if it came.
    subscript(url: URL) -> Result<ImageLoadResult, WebImageError>? {
        results.withLock { $0[url] }
    }

    /// How many loads have completed.
    var count: Int {
        results.withLock { $0.count }
    }
}
