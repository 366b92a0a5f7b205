#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an ``ImagePrefetcher`` reports through ``ImagePrefetcher/events(bufferingNewest:)``: SDWebImage's
/// prefetcher delegate calls, with counts over every prefetch of a busy spell.
///
/// A spell starts when a prefetch starts while none is running, and ends when its last running prefetch has
/// finished or been cancelled. Within it, each URL done sends ``didPrefetch(url:skipped:progress:)`` with
/// counts over all the spell's prefetches, the finished count rising by one each time; the end sends
/// ``didFinish(_:)`` once.
public enum ImagePrefetcherEvent: Sendable, Hashable {
    /// One URL is done, as `imagePrefetcher:didPrefetchURL:finishedCount:totalCount:`.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - skipped: Whether it could not be loaded or stored.
    ///   - progress: The spell's counts, this URL included.
    case didPrefetch(url: URL, skipped: Bool, progress: ImagePrefetchProgress)
    /// The spell is over, as `imagePrefetcher:didFinishWithTotalCount:skippedCount:`: no prefetch is running.
    /// The counts are the spell's last; the finished count equals the total.
    case didFinish(ImagePrefetchProgress)
}
