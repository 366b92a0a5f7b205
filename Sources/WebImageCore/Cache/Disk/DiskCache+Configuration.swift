extension DiskCache {
    /// Which of a file's dates the cache expires and orders entries by, as SDWebImage's
    /// `SDImageCacheConfigExpireType` (without the creation date, which Linux file systems do not report through
    /// `stat`).
    public enum ExpireType: Sendable, Hashable {
        /// The last time the entry was read or written. The cache sets it explicitly on every hit, so the order is
        /// least-recently-used whatever the mount's `atime` options, and it survives restarts. The default.
        case accessDate
        /// The last time the entry was written.
        case modificationDate
        /// The last change of the file or its attributes (`ctime`): a write, and also a hit, since setting the
        /// access date changes the inode.
        case changeDate
    }

    /// The limits and behaviour of a disk cache, fixed when the cache is created.
    ///
    /// ```swift
    /// var configuration = DiskCache.Configuration()
    /// configuration.maxSize = 200 << 20          // 200 MiB
    /// configuration.maxAge = 24 * 3600           // one day
    /// let cache = DiskCache(namespace: "avatars", configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// How long an entry lives, in seconds, measured from the date ``expireType`` names; 7 days by default.
        /// Negative: entries never expire. 0: every entry expires at the next ``DiskCache/removeExpiredData()``.
        public var maxAge: Double = 7 * 24 * 3600
        /// The most bytes the entries may occupy on disk; 1 GiB by default, 0 for no limit.
        ///
        /// Sizes are allocated bytes (`st_blocks` × 512, what `du` reports), not content lengths: a 100-byte entry
        /// costs a whole block. A write that takes the total over the limit removes the least recent entries until
        /// the total is below half the limit; an entry of half the limit or more is not kept.
        public var maxSize: Int = 1 << 30
        /// The date entries expire and are ordered by; the access date by default.
        public var expireType: ExpireType = .accessDate
        /// Whether each write is flushed to the device (`fsync` of the file before the rename and of the
        /// directory after it), so that an entry survives a power loss. Off by default: a crash can then lose
        /// recent entries, but never leaves a partial one.
        public var syncsWrites: Bool = false
        /// A read-only extra location for a key, as SDWebImage's `additionalCachePathBlock`: the path of a file
        /// to read when the cache has no entry (images shipped with an application, a shared read-only cache).
        /// Called on the cache's IO queue; it must be quick and must not call back into the cache.
        public var additionalLookupPath: (@Sendable (String) -> String?)?

        /// The defaults: 7 days by access date, 1 GiB, no fsync, no extra location.
        public init() {}
    }
}
