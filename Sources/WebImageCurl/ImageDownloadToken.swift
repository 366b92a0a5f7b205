#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WebImageCore

/// One caller's part of a download.
///
/// Cancelling completes this caller at once with `cancelled` and leaves the transfer running for its other
/// callers; the transfer stops when its last caller cancels. Thread-safe.
public final class ImageDownloadToken: ImageLoadToken {
    /// The URL the caller asked for.
    public let url: URL
    let latch: CompletionLatch<ImageLoaderResult>
    private let transferMetrics = Mutex<ImageDownloadMetrics?>(nil)

    init(url: URL, latch: CompletionLatch<ImageLoaderResult>) {
        self.url = url
        self.latch = latch
    }

    public func cancel() {
        latch.cancel()
    }

    public var isCancelled: Bool { latch.isCancelled }
    public var isFinished: Bool { latch.isDone }

    /// The metrics of the transfer that served this caller, once it has ended; nil before, and for callers
    /// that failed before a transfer started.
    public var metrics: ImageDownloadMetrics? {
        transferMetrics.withLock { $0 }
    }

    func record(_ metrics: ImageDownloadMetrics) {
        transferMetrics.withLock { $0 = metrics }
    }
}
