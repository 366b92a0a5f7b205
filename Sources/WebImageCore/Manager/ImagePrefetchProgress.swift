/// Counts of an ``ImagePrefetcher``'s work over one busy spell, as SDWebImage's prefetcher delegate receives
/// them: every prefetch started while another was still running counts together.
public struct ImagePrefetchProgress: Sendable, Hashable {
    /// URLs done, loaded or skipped.
    public var finishedCount: Int
    /// URLs done that could not be loaded or stored (the ones a prefetch's completion counts as skipped).
    public var skippedCount: Int
    /// URLs asked for by the spell's prefetches, less the ones a cancelled prefetch had not finished.
    public var totalCount: Int

    public init(finishedCount: Int, skippedCount: Int, totalCount: Int) {
        self.finishedCount = finishedCount
        self.skippedCount = skippedCount
        self.totalCount = totalCount
    }
}
