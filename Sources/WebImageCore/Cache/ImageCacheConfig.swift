/// The settings of an ``ImageCache``, as SDWebImage's `SDImageCacheConfig`, with this library's defaults: bounded
/// memory and bounded disk out of the box.
public struct ImageCacheConfig: Sendable {
    /// Keep images in the memory tier. When false, only the disk tier is used (an explicit memory store through
    /// ``ImageCache/memoryCache`` still works).
    public var shouldCacheImagesInMemory = true
    /// Keep a strong-key, weak-value map next to the memory tier, so that images evicted while still in use are
    /// found again. Off by default.
    public var shouldUseWeakMemoryCache = false
    /// The memory tier's cost limit in bytes; by default 15% of the memory limit (cgroup, else physical), at
    /// most 1 GiB. 0 means no limit.
    public var maxMemoryCost = MemoryCache.defaultCostLimit
    /// The memory tier's count limit; 0 (the default) means no limit.
    public var maxMemoryCount = 0
    /// The disk tier's settings: age (7 days), size (1 GiB), which date counts, synced writes, extra lookup path.
    public var disk = DiskCache.Configuration()

    /// The defaults.
    public init() {}
}
