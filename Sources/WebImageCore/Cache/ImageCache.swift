#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CoreMetrics
import Logging

/// An image cache with a memory tier in front of a disk tier, as SDWebImage's `SDImageCache`.
///
/// ```swift
/// let cache = ImageCache(namespace: "avatars", coder: ImageCoderRegistry.shared)
/// cache.store(image, data: data, key: url.absoluteString) { _ in }
/// cache.query(key: url.absoluteString) { result in
///     if case .success(let found) = result, let image = found.image { use(image, found.cacheType) }
/// }
/// ```
///
/// - The memory tier (``memoryCache``) is an exact LRU by cost and count. A memory store is visible before
///   ``store(_:data:key:options:context:cacheType:completion:)`` returns; a memory hit completes during the call.
/// - The disk tier (``diskCache``) does every file operation on its serial IO queue. Disk data is decoded on a
///   bounded executor, never on the IO queue; concurrent queries for the same key and decode options share one
///   read and one decode. A file that fails to decode is removed and reported as a miss.
///
/// Thread-safe. Every completion runs exactly once, on the context's callback queue (the `callbackQueue`
/// argument for maintenance calls), never on the cache's own queues. Queries can be cancelled: the read and the
/// decode are skipped when every caller waiting for them has cancelled.
public final class ImageCache: ImageCaching, Sendable {
    /// The memory tier.
    public let memoryCache: MemoryCache
    /// The disk tier.
    public let diskCache: DiskCache
    /// The settings the cache was made with.
    public let config: ImageCacheConfig
    /// Decodes disk data and encodes images stored without data (unless a context names another coder).
    public let coder: any ImageCoding
    /// Where decoding and encoding run.
    public let executor: BoundedExecutor

    let reads = SingleFlight<ReadKey, Void, Never, ImageCacheQueryResult>()
    /// Where the cache's metrics go (``ImageMetrics``); nil when its factory records nothing.
    let metrics: ImageMetricsRecorder?
    /// The logger when it writes debug lines, and when it writes warnings; nil otherwise.
    let debugLog: Logger?
    let warningLog: Logger?
    /// The encodes of stores made without data, whose disk writes are not yet on the IO queue (see ``flush()``).
    let pendingEncodes = PendingWork()

    /// A cache in `<root>/<namespace>`.
    ///
    /// - Parameters:
    ///   - namespace: The folder under `root`; `default` for the shared cache.
    ///   - root: The disk cache root; by default `$XDG_CACHE_HOME/swift-web-image`, else `~/.cache/swift-web-image`.
    ///   - config: Limits and switches.
    ///   - coder: Decodes disk hits and encodes images stored without data; usually `ImageCoderRegistry.shared`.
    ///   - executor: Where decoding and encoding run.
    ///   - metricsFactory: Where the cache reports its metrics (``ImageMetrics``): the size and entries of each
    ///     tier, its evictions, its encodes and the encode and disk-write times. By default the metrics system's
    ///     factory as it is now: nothing is recorded until the application bootstraps one before making the cache.
    ///   - logger: Where the cache writes what goes wrong as warnings (a failed disk write or encode, an entry
    ///     that no longer decodes and is removed) and each disk write and eviction as debug lines, with keys
    ///     redacted. Disk lines are written on the IO queue: give a handler that does not block for long. Nil, the
    ///     default, logs nothing; the logger's level is read once, here.
    public convenience init(
        namespace: String = "default",
        root: URL? = nil,
        config: ImageCacheConfig = ImageCacheConfig(),
        coder: any ImageCoding,
        executor: BoundedExecutor = .decoding,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger? = nil
    ) {
        self.init(
            memoryCache: MemoryCache(
                costLimit: config.maxMemoryCost,
                countLimit: config.maxMemoryCount,
                usesWeakMap: config.shouldUseWeakMemoryCache
            ),
            diskCache: DiskCache(namespace: namespace, root: root, configuration: config.disk),
            config: config,
            coder: coder,
            executor: executor,
            metricsFactory: metricsFactory,
            logger: logger
        )
    }

    /// A cache over tiers made elsewhere; see ``init(namespace:root:config:coder:executor:metricsFactory:logger:)``.
    public init(
        memoryCache: MemoryCache,
        diskCache: DiskCache,
        config: ImageCacheConfig = ImageCacheConfig(),
        coder: any ImageCoding,
        executor: BoundedExecutor = .decoding,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger? = nil
    ) {
        self.memoryCache = memoryCache
        self.diskCache = diskCache
        self.config = config
        self.coder = coder
        self.executor = executor
        metrics = ImageMetricsRecorder.make(metricsFactory)
        debugLog = LogMetadata.writing(logger, at: .debug)
        warningLog = LogMetadata.writing(logger, at: .warning)
    }

    // MARK: Synchronous look-ups

    /// The image in the memory tier under `key`, without touching the disk. Never blocks beyond a lock.
    public func imageFromMemory(forKey key: String) -> Image? {
        memoryCache.image(forKey: key)
    }

    /// The image on disk under `key`, decoded on the calling thread with the decode options of `options` and
    /// `context`, and written back to memory (under the thumbnail key for a thumbnail) unless the context's
    /// store type leaves memory out. Waits for the IO queue.
    public func imageFromDisk(forKey key: String, options: ImageOptions = [], context: ImageContext = ImageContext()) -> Image? {
        guard !key.isEmpty, let data = diskCache.data(forKey: key) else { return nil }
        let plan = QueryPlan(cache: self, key: key, options: options, context: context)
        return decodeDiskData(data, plan: plan, extendedObject: diskExtendedObject(forKey: key))
    }

    /// The image in memory, else on disk (see ``imageFromDisk(forKey:options:context:)``).
    public func imageFromCache(forKey key: String, options: ImageOptions = [], context: ImageContext = ImageContext()) -> Image? {
        let plan = QueryPlan(cache: self, key: key, options: options, context: context)
        if let image = plan.memoryHit(in: self) { return image }
        return imageFromDisk(forKey: key, options: options, context: context)
    }

    /// The encoded data on disk under `key`. Waits for the IO queue.
    public func diskData(forKey key: String) -> Data? {
        guard !key.isEmpty else { return nil }
        return diskCache.data(forKey: key)
    }

    /// The encoded data on disk under `key`, read on the IO queue and handed to `completion` on the executor.
    public func diskData(forKey key: String, completion: @escaping @Sendable (Data?) -> Void) {
        guard !key.isEmpty else { return completion(nil) }
        diskCache.perform { [executor] store in
            let data = store.data(forKey: key)
            executor.submit { completion(data) }
        }
    }

    /// Which tier holds `key`, memory first; `.none` when neither does. Waits for the IO queue for the disk.
    public func containsImage(forKey key: String, cacheType: ImageCacheType = .all) -> ImageCacheType {
        guard !key.isEmpty else { return .none }
        if cacheType.includesMemory, memoryCache.contains(key: key) { return .memory }
        if cacheType.includesDisk, diskCache.containsData(forKey: key) { return .disk }
        return .none
    }

    // MARK: Decoding

    /// The extended object kept with `key`'s disk entry; reads on the IO queue and waits.
    func diskExtendedObject(forKey key: String) -> Data? {
        ImageCacheEntryExtras.extendedObject(in: diskCache.extendedData(forKey: key))
    }

    /// Decodes disk data for `plan`, puts the entry's `extendedObject` on the image, records the options, and
    /// writes the image back to memory as the plan says. Data that cannot be decoded is removed from disk (a
    /// corrupt entry), except when only a limit refused it.
    func decodeDiskData(_ data: Data, plan: QueryPlan, extendedObject: Data?) -> Image? {
        var image: Image
        do {
            image = try plan.coder.decodeForLoad(data, options: plan.decodeOptions)
        } catch {
            if error.code != .imageTooLarge {
                let key = plan.key
                diskCache.perform { store in store.removeData(forKey: key) }
                warningLog?.warning("disk entry does not decode; removed", metadata: [
                    "key": LogMetadata.key(key), "error_code": "\(error.code)",
                ])
            }
            return nil
        }
        if let extendedObject { image = image.withExtendedObject(extendedObject) }
        if plan.writesBackToMemory {
            memoryCache.setImage(image, forKey: plan.memoryKey)
        }
        return image
    }
}

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
