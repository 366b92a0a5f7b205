#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CoreMetrics
import Logging
import Synchronization

/// Loads images through a cache and a loader, as SDWebImage's `SDWebImageManager`: query the cache, load on a
/// miss, decode, transform, store, and call back exactly once.
///
/// ```swift
/// let manager = ImageManager(cache: cache, loader: downloader)
/// manager.loadImage(url: url) { result in
///     if case .success(let loaded) = result { show(loaded.image) }
/// }
/// let loaded = try await manager.loadImage(url: url, options: [.retryFailed])
/// ```
///
/// Threading: thread-safe; every method may be called from any thread, and returns without blocking. Completions
/// run on the context's callback queue (``CallbackQueue/default`` when it names none): a memory hit completes
/// during the call, on the caller's thread, with the default queue.
///
/// Cancellation: ``ImageLoadOperation/cancel()`` completes the load at once with `cancelled` and cancels its cache
/// query and its loader request; ``cancelAll()`` does that to every running load.
public final class ImageManager: Sendable {
    /// The cache queried before loading and stored into after (unless a context names another).
    public let cache: any ImageCaching
    /// The loader used on a cache miss (unless a context names another).
    public let loader: any ImageLoading
    /// Where transformers run.
    public let executor: BoundedExecutor
    /// Encodes the variants of ``loadImageData(url:options:context:completion:)`` and reads their headers, unless
    /// a context names another coder; nil when none was given, and then only a context's coder can.
    public let coder: (any ImageCoding)?
    /// The lossy quality (0...1) at which thumbnails and transformed images are encoded, for the disk cache and
    /// for ``loadImageData(url:options:context:completion:)``, unless a context's
    /// ``ImageContext/encodeOptions`` says otherwise. Originals are never encoded again: their bytes are kept as
    /// they came. 0.85 by default, where SDWebImage encodes them at 1: a 256-pixel JPEG thumbnail of a photo
    /// then takes about an eighth of the bytes (7 to 10 KB, against 53 to 86 KB at 1), with no difference a viewer
    /// sees at that size.
    public let derivedImageQuality: Double
    /// The memory tier of encoded variants, which ``loadImageData(url:options:context:completion:)`` answers
    /// from before the disk.
    public let encodedMemoryCache: EncodedMemoryCache

    let failedURLList: FailedURLList
    let transforms = SharedTransforms()
    /// The variants ``loadImageData(url:options:context:completion:)`` is making, one per key.
    let variants = VariantFlights()
    /// The variant keys worked out before, for the encoded memory hit.
    let variantKeys = VariantKeys()
    /// The streams of ``events(bufferingNewest:)`` and the logger.
    let instruments: ImageManagerInstruments
    /// Where the manager's metrics go (``ImageMetrics``); nil when its factory records nothing.
    let metrics: ImageMetricsRecorder?
    private let settings = Locked(Settings.none)
    /// The loads registered until they complete, and who waits for there to be none (see ``beginShutdown()``).
    let running = Locked(RunningLoads())
    /// Set once by ``beginShutdown()``; read with one atomic load before a memory hit.
    let shutdownBegun = Atomic(false)

    /// The settable properties, read together once per load: an immutable snapshot, replaced whole under the lock
    /// when a property is set, so that a load reads them all with one retain rather than copying six closures.
    final class Settings: Sendable {
        let transformer: (any ImageTransforming)?
        let cacheKeyFilter: ImageCacheKeyFilter?
        let cacheSerializer: ImageCacheSerializer?
        let optionsProcessor: ImageOptionsProcessor?
        let shouldDownload: (@Sendable (URL) -> Bool)?
        let shouldBlockFailedURL: (@Sendable (URL, WebImageError) -> Bool)?

        /// The settings with no property set.
        static let none = Settings()

        private init() {
            transformer = nil
            cacheKeyFilter = nil
            cacheSerializer = nil
            optionsProcessor = nil
            shouldDownload = nil
            shouldBlockFailedURL = nil
        }

        private init(_ draft: Draft) {
            transformer = draft.transformer
            cacheKeyFilter = draft.cacheKeyFilter
            cacheSerializer = draft.cacheSerializer
            optionsProcessor = draft.optionsProcessor
            shouldDownload = draft.shouldDownload
            shouldBlockFailedURL = draft.shouldBlockFailedURL
        }

        /// Whether no property is set.
        var isEmpty: Bool {
            transformer == nil && cacheKeyFilter == nil && cacheSerializer == nil && optionsProcessor == nil
                && shouldDownload == nil && shouldBlockFailedURL == nil
        }

        /// These settings with `change` applied.
        func with(_ change: (inout Draft) -> Void) -> Settings {
            var draft = Draft(
                transformer: transformer,
                cacheKeyFilter: cacheKeyFilter,
                cacheSerializer: cacheSerializer,
                optionsProcessor: optionsProcessor,
                shouldDownload: shouldDownload,
                shouldBlockFailedURL: shouldBlockFailedURL
            )
            change(&draft)
            return Settings(draft)
        }

        /// The properties while one is being changed.
        struct Draft {
            var transformer: (any ImageTransforming)?
            var cacheKeyFilter: ImageCacheKeyFilter?
            var cacheSerializer: ImageCacheSerializer?
            var optionsProcessor: ImageOptionsProcessor?
            var shouldDownload: (@Sendable (URL) -> Bool)?
            var shouldBlockFailedURL: (@Sendable (URL, WebImageError) -> Bool)?
        }
    }

    /// A manager over `cache` and `loader`. Makes no thread and touches no disk; the cache and the loader do
    /// their own work on their own queues.
    ///
    /// - Parameters:
    ///   - failedURLLifetime: How long a URL stays on the failed list (SDWebImage keeps it for ever).
    ///   - now: The clock the failed list reads; tests pass their own.
    ///   - executor: Where transformers and encoders run.
    ///   - coder: Encodes and reads the variants of ``loadImageData(url:options:context:completion:)``.
    ///   - derivedImageQuality: See ``derivedImageQuality``; clamped to 0...1.
    ///   - encodedMemoryCache: The memory tier of encoded variants.
    ///   - logger: Where the manager logs each step of its loads (see ``ImageManagerEvent``): debug lines, and a
    ///     warning for a failed store, with the URL and key (credentials redacted), the cache tier, the error code
    ///     and durations as metadata, never a header. Nil, the default, logs nothing, as a library should until
    ///     its user says where its lines go. The logger's level is read once, here.
    ///   - metricsFactory: Where the manager reports its metrics (``ImageMetrics``): loads by source, failures by
    ///     code, decodes, encodes, failed stores, the decode, transform, encode and disk-read times, and the
    ///     encoded memory tier's size. By default the metrics system's factory as it is now: nothing is recorded
    ///     until the application bootstraps one before making the manager.
    public init(
        cache: any ImageCaching,
        loader: any ImageLoading,
        failedURLLifetime: Duration = .seconds(600),
        now: @escaping @Sendable () -> Date = { Date() },
        executor: BoundedExecutor = .decoding,
        coder: (any ImageCoding)? = nil,
        derivedImageQuality: Double = ImageManager.defaultDerivedImageQuality,
        encodedMemoryCache: EncodedMemoryCache = EncodedMemoryCache(),
        logger: Logger? = nil,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.cache = cache
        self.loader = loader
        self.executor = executor
        self.coder = coder
        self.derivedImageQuality = derivedImageQuality.isNaN ? Self.defaultDerivedImageQuality : min(1, max(0, derivedImageQuality))
        self.encodedMemoryCache = encodedMemoryCache
        failedURLList = FailedURLList(lifetime: failedURLLifetime, now: now)
        instruments = ImageManagerInstruments(logger: logger)
        metrics = ImageMetricsRecorder.make(metricsFactory)
    }

    /// The quality thumbnails and transformed images are encoded at by default: 0.85 (see ``derivedImageQuality``).
    public static let defaultDerivedImageQuality = 0.85

    deinit {
        instruments.finishAll()
    }

    // MARK: Settings

    /// Transforms every loaded image, unless a context names its own transformer or disables it.
    public var transformer: (any ImageTransforming)? {
        get { settings.withLock { $0.transformer } }
        set { update { $0.transformer = newValue } }
    }

    /// Turns URLs into cache keys, unless a context names its own filter; by default the key is the URL's string.
    public var cacheKeyFilter: ImageCacheKeyFilter? {
        get { settings.withLock { $0.cacheKeyFilter } }
        set { update { $0.cacheKeyFilter = newValue } }
    }

    /// Chooses the bytes stored on disk, unless a context names its own serializer.
    public var cacheSerializer: ImageCacheSerializer? {
        get { settings.withLock { $0.cacheSerializer } }
        set { update { $0.cacheSerializer = newValue } }
    }

    /// Rewrites every load's options and context first.
    public var optionsProcessor: ImageOptionsProcessor? {
        get { settings.withLock { $0.optionsProcessor } }
        set { update { $0.optionsProcessor = newValue } }
    }

    /// Whether to load a URL the cache does not hold (SDWebImage's `shouldDownloadImageForURL`); a refusal ends the
    /// load with `notInCache`. Called on a library thread; must be fast.
    public var shouldDownload: (@Sendable (URL) -> Bool)? {
        get { settings.withLock { $0.shouldDownload } }
        set { update { $0.shouldDownload = newValue } }
    }

    /// Whether a failure puts the URL on the failed list; replaces the loader's classification when set.
    public var shouldBlockFailedURL: (@Sendable (URL, WebImageError) -> Bool)? {
        get { settings.withLock { $0.shouldBlockFailedURL } }
        set { update { $0.shouldBlockFailedURL = newValue } }
    }

    // MARK: Running loads

    /// Whether any load is running.
    public var isRunning: Bool {
        running.withLock { !$0.operations.isEmpty }
    }

    /// Cancels every running load; each completes with `cancelled`.
    public func cancelAll() {
        let operations = running.withLock { Array($0.operations.values) }
        for operation in operations { operation.cancel() }
    }

    /// Keeps `operation` among the running loads until ``unregister(_:)``; an operation delivered during its call
    /// is never running. False, keeping nothing, once ``beginShutdown()`` was called.
    func register(_ operation: ImageLoadOperation) -> Bool {
        guard let run = operation.run else { return true }
        return running.withLock { $0.insert(operation, for: ObjectIdentifier(run)) }
    }

    func unregister(_ operation: ImageLoadOperation) {
        guard let run = operation.run else { return }
        unregister(run)
    }

    /// Forgets the running load that `run` belongs to.
    func unregister(_ run: ImageLoadOperation.Run) {
        let idle = running.withLock { $0.remove(ObjectIdentifier(run)) }
        for waiter in idle { waiter() }
    }

    // MARK: Failed URLs

    /// The URLs on the failed list, with why each failed and when it leaves the list.
    public var failedURLs: [URL: FailedURL] {
        failedURLList.all
    }

    /// Takes `url` off the failed list.
    public func removeFailedURL(_ url: URL) {
        failedURLList.remove(url)
    }

    /// Empties the failed list.
    public func removeAllFailedURLs() {
        failedURLList.removeAll()
    }

    // MARK: Keys

    /// The cache key of `url` for a load with `context`: the cache key filter's key (else the URL's string),
    /// with SDWebImage's thumbnail and transformer suffixes when the context asks for a thumbnail or a
    /// transformer applies. An empty string for a nil URL.
    public func cacheKey(for url: URL?, context: ImageContext = ImageContext()) -> String {
        let resolved = resolved(context)
        guard let url else { return "" }
        return Self.keys(for: url, context: resolved).full
    }

    /// Whether any settable property is set; false lets a load skip the lock.
    let hasSettings = Atomic(false)

    /// The settable properties as they are now.
    var currentSettings: Settings {
        settingsIfAny ?? .none
    }

    /// The settable properties as they are now, or nil when none is set: what a memory hit reads, without taking
    /// the lock or a reference when nothing is set.
    @inline(__always)
    var settingsIfAny: Settings? {
        guard hasSettings.load(ordering: .acquiring) else { return nil }
        return settings.withLock { $0 }
    }

    private func update(_ change: (inout Settings.Draft) -> Void) {
        settings.withLock { settings in
            settings = settings.with(change)
            hasSettings.store(!settings.isEmpty, ordering: .releasing)
        }
    }

    /// The manager's settings merged into `context` (the context wins), as SDWebImage does before each load.
    func resolved(_ context: ImageContext, with defaults: Settings? = nil) -> ImageContext {
        let defaults = defaults ?? currentSettings
        var context = context
        if context.disablesTransformer {
            context.imageTransformer = nil
        } else if context.imageTransformer == nil {
            context.imageTransformer = defaults.transformer
        }
        if context.cacheKeyFilter == nil { context.cacheKeyFilter = defaults.cacheKeyFilter }
        if context.cacheSerializer == nil { context.cacheSerializer = defaults.cacheSerializer }
        return context
    }

    /// The original key (the filter's, else the URL's string) and the full key with the thumbnail and
    /// transformer suffixes, for a context already resolved.
    static func keys(for url: URL, context: ImageContext) -> (original: String, full: String) {
        keys(
            for: url,
            filter: context.cacheKeyFilter,
            thumbnail: context.thumbnailPixelSize,
            preserveAspectRatio: context.preserveAspectRatio,
            transformer: context.imageTransformer
        )
    }

    static func keys(
        for url: URL,
        filter: ImageCacheKeyFilter?,
        thumbnail: PixelSize?,
        preserveAspectRatio: Bool?,
        transformer: (any ImageTransforming)?
    ) -> (original: String, full: String) {
        let original = filter?(url) ?? url.absoluteString
        var full = original
        if let thumbnail, !thumbnail.isEmpty {
            full = ImageCacheKeys.thumbnailKey(for: full, size: thumbnail, preserveAspectRatio: preserveAspectRatio ?? true)
        }
        if let transformer {
            full = ImageCacheKeys.transformedKey(for: full, transformerKey: transformer.transformerKey)
        }
        return (original, full)
    }
}
