#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The steps of one load, in SDWebImage's order (`callCacheProcess` to `callStoreCacheProcess`): query the full
/// key; on a miss of a derived key, query the original key (decoding a full-size entry straight to the thumbnail);
/// decide whether to load; load; transform; store the original and the final image; complete.
///
/// Every step after the first runs in the completion of the one before, on whichever library thread finished it
/// (internal steps use the inline callback queue); only the final result goes to the caller's callback queue.
/// Each step first checks that the operation has not been cancelled.
final class ImageLoadJob: Sendable {
    private let manager: ImageManager
    private let operation: ImageLoadOperation
    private let url: URL
    private let options: ImageOptions
    /// The caller's context, resolved; its callback queue is the caller's.
    private let context: ImageContext
    /// The same with the inline callback queue, for the caches and the loader.
    private let inner: ImageContext
    private let keys: (original: String, full: String)
    private let cache: any ImageCaching
    private let originalCache: any ImageCaching
    private let loader: any ImageLoading
    private let shouldDownload: (@Sendable (URL) -> Bool)?
    private let shouldBlock: (@Sendable (URL, WebImageError) -> Bool)?
    private let call = CallScope()
    /// When the load started, and its metrics so far; its steps run one after another, on different threads.
    private let started = ContinuousClock.now
    private let metrics = Locked(ImageLoadMetrics())

    init(
        manager: ImageManager,
        operation: ImageLoadOperation,
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        shouldDownload: (@Sendable (URL) -> Bool)?,
        shouldBlock: (@Sendable (URL, WebImageError) -> Bool)?
    ) {
        self.manager = manager
        self.operation = operation
        self.url = url
        self.options = options
        self.context = context
        var inner = context
        inner.callbackQueue = .inline
        self.inner = inner
        keys = ImageManager.keys(for: url, context: context)
        cache = context.imageCache ?? manager.cache
        originalCache = context.originalImageCache ?? context.imageCache ?? manager.cache
        loader = context.imageLoader ?? manager.loader
        self.shouldDownload = shouldDownload
        self.shouldBlock = shouldBlock
    }

    /// Runs the first step; results ready before it returns are delivered as ready during the call.
    func start() {
        defer { call.end() }
        let instruments = manager.instruments
        if instruments.isActive() {
            instruments.send(.loadStarted(url: url, key: keys.full))
            operation.onCancel { [self] in
                let cancelled = WebImageError(.cancelled, "the load of \(url.absoluteString) was cancelled")
                instruments.send(.loadFinished(ImageLoadReport(url: url, key: keys.full, result: .failure(cancelled), metrics: finalMetrics())))
            }
        }
        if let recorder = manager.metrics {
            operation.onCancel { recorder.recordFailure(.cancelled) }
        }
        if options.contains(.fromLoaderOnly) {
            loadIfAllowed()
        } else {
            operation.onCancel { [self] in endLoadInCaches() }
            queryCache()
        }
    }

    private var isDerived: Bool { keys.full != keys.original }

    private var isThumbnail: Bool {
        context.thumbnailPixelSize.map { !$0.isEmpty } ?? false
    }

    // MARK: Cache

    /// The full key, without the thumbnail options: an entry under a thumbnail key already is the thumbnail.
    private func queryCache() {
        var queryContext = inner
        queryContext.thumbnailPixelSize = nil
        queryContext.preserveAspectRatio = nil
        let asked = ContinuousClock.now
        let token = cache.query(key: keys.full, options: options, context: queryContext, cacheType: context.queryCacheType ?? .all) { [self] result in
            guard !operation.isFinished else { return }
            operation.endCacheQuery()
            cacheAnswered(key: keys.full, since: asked, result)
            if case .success(let found) = result, let image = found.image {
                cacheHit(image, found)
            } else if isDerived {
                queryOriginal()
            } else {
                loadIfAllowed()
            }
        }
        operation.setCacheToken(token)
    }

    /// The original key, with the thumbnail options: a full-size entry is decoded straight to the thumbnail, and
    /// the network is not asked.
    private func queryOriginal() {
        let cacheType = context.originalQueryCacheType ?? .disk
        guard cacheType != .none else { return loadIfAllowed() }
        let asked = ContinuousClock.now
        let token = originalCache.query(key: keys.original, options: options, context: inner, cacheType: cacheType) { [self] result in
            guard !operation.isFinished else { return }
            operation.endCacheQuery()
            cacheAnswered(key: keys.original, since: asked, result)
            if case .success(let found) = result, let image = found.image {
                process(image, data: found.data, source: found.cacheType, response: nil)
            } else {
                loadIfAllowed()
            }
        }
        operation.setCacheToken(token)
    }

    /// Adds a query's time to the metrics and reports its answer.
    private func cacheAnswered(key: String, since asked: ContinuousClock.Instant, _ result: Result<ImageCacheQueryResult, WebImageError>) {
        let took = ContinuousClock.now - asked
        metrics.withLock { $0.cacheLookup = ($0.cacheLookup ?? .zero) + took }
        if case .success(let found) = result, found.image != nil {
            manager.instruments.send(.cacheHit(url: url, key: key, cacheType: found.cacheType))
        } else {
            manager.instruments.send(.cacheMiss(url: url, key: key))
        }
    }

    private func cacheHit(_ image: Image, _ found: ImageCacheQueryResult) {
        let result = ImageLoadResult(image: image, data: found.data, cacheType: found.cacheType, url: url, outcome: .cached)
        guard options.contains(.refreshCached), refusal() == nil else { return finish(.success(result)) }
        var refreshing = result
        refreshing.outcome = .refreshing
        operation.deliverRefreshing(refreshing, duringCall: call.isCurrent)
        load(revalidating: found)
    }

    // MARK: Loading

    /// Why this load may not use the loader, or nil when it may.
    private func refusal() -> WebImageError? {
        if options.contains(.fromCacheOnly) {
            return WebImageError(.notInCache, "\(url.absoluteString) is not in the cache, and fromCacheOnly forbids loading it")
        }
        if let shouldDownload, !shouldDownload(url) {
            return WebImageError(.notInCache, "\(url.absoluteString) is not in the cache, and the manager's shouldDownload declined it")
        }
        if !loader.canRequestImage(for: url) {
            return WebImageError(.unsupportedScheme, "no image loader handles \(url.absoluteString)")
        }
        return nil
    }

    private func loadIfAllowed() {
        if let refusal = refusal() { return finish(.failure(refusal)) }
        load(revalidating: nil)
    }

    /// Asks the loader; with a cached copy to revalidate, the request is conditional on its validators, which are
    /// read from disk off the caller's thread first.
    private func load(revalidating cached: ImageCacheQueryResult?) {
        guard cached != nil else { return request(inner, revalidating: nil) }
        DispatchQueue.global().async { [self] in
            guard !operation.isFinished else { return }
            var loaderContext = inner
            loaderContext.revalidation = (isDerived ? originalCache : cache).revalidation(forKey: keys.original)
            request(loaderContext, revalidating: cached)
        }
    }

    private func request(_ loaderContext: ImageContext, revalidating cached: ImageCacheQueryResult?) {
        let progress: ImageLoadProgressHandler?
        if options.contains(.progressiveLoad) {
            // Partial images: transformed as the final image will be, reported, and delivered as partial results.
            let transformer = context.imageTransformer
            let transformsAnimations = options.contains(.transformAnimatedImage)
            progress = { @Sendable [operation, url, key = keys.full] report in
                guard let decoded = report.partialImage, !operation.isFinished else { return operation.report(report) }
                // Transformed only when it will be delivered: a partial that comes while the one before is still
                // being handed over waits untouched, and is dropped so if a later one or the end overtakes it.
                operation.deliverPartial {
                    var partial = decoded
                    if let transformer, !partial.isAnimated || transformsAnimations {
                        partial = transformer.transform(image: partial, key: key)?.markedTransformed(from: partial).markedIncremental() ?? partial
                    }
                    var shown = report
                    shown.partialImage = partial
                    operation.report(shown)
                    return ImageLoadResult(image: partial, data: nil, cacheType: .none, url: url, outcome: .partial)
                }
            }
        } else {
            progress = operation.wantsProgress ? { @Sendable [operation] in operation.report($0) } : nil
        }
        manager.instruments.send(.downloadStarted(url: url))
        let asked = ContinuousClock.now
        let token = loader.requestImage(url: url, options: options, context: loaderContext, progress: progress) { [self] result in
            loaderAnswered(since: asked, result)
            loaded(result, cached: cached)
        }
        operation.setLoaderToken(token)
    }

    /// Records the loader's part in the metrics and reports it.
    private func loaderAnswered(since asked: ContinuousClock.Instant, _ result: Result<DownloadedImage, WebImageError>) {
        let took = ContinuousClock.now - asked
        let loaded = try? result.get()
        metrics.withLock { metrics in
            metrics.load = took
            metrics.download = loaded?.metrics
            metrics.decode = loaded?.decodeDuration
        }
        let instruments = manager.instruments
        guard instruments.isActive() else { return }
        switch result {
        case .success(let loaded):
            instruments.send(.downloadFinished(url: url, metrics: loaded.metrics, error: nil))
            if let duration = loaded.decodeDuration {
                instruments.send(.decoded(url: url, pixelSize: loaded.image.pixelSize, duration: duration))
            }
        case .failure(let error):
            instruments.send(.downloadFinished(url: url, metrics: nil, error: error))
        }
    }

    private func loaded(_ result: Result<DownloadedImage, WebImageError>, cached: ImageCacheQueryResult?) {
        guard !operation.isFinished else { return }
        switch result {
        case .failure(let error):
            if error.code == .cacheNotModified, let cached, let image = cached.image {
                return finish(.success(ImageLoadResult(image: image, data: cached.data, cacheType: cached.cacheType, url: url, outcome: .notModified)))
            }
            // Recorded before the completion runs, so that a retry from the completion sees it.
            manager.recordFailure(url, error: error, loader: loader, shouldBlock: shouldBlock)
            finish(.failure(error))
        case .success(let loaded):
            manager.failedURLList.remove(url)
            if let cached, let image = cached.image, let data = cached.data, data == loaded.data {
                return finish(.success(ImageLoadResult(image: image, data: data, cacheType: cached.cacheType, url: url, outcome: .notModified)))
            }
            process(loaded.image, data: loaded.data, source: .none, response: loaded.response)
        }
    }

    // MARK: Transform and store

    /// Transforms (on the manager's executor, shared with other loads of the same image and key) when a
    /// transformer applies, then stores and completes.
    private func process(_ image: Image, data: Data?, source: ImageCacheType, response: ImageResponse?) {
        guard let transformer = context.imageTransformer, !image.isAnimated || options.contains(.transformAnimatedImage) else {
            return store(image, isDerived: isThumbnail, original: isThumbnail ? nil : image, data: data, source: source, response: response)
        }
        let asked = ContinuousClock.now
        manager.transforms.transform(image, key: keys.full, with: transformer, on: manager.executor) { [self] transformed in
            let took = ContinuousClock.now - asked
            metrics.withLock { $0.transform = took }
            guard !operation.isFinished else { return }
            store(transformed ?? image, isDerived: transformed != nil || isThumbnail, original: isThumbnail ? nil : image, data: data, source: source, response: response)
        }
    }

    /// Stores the original (under the original key, for a derived key) and the final image, then completes: at
    /// once, or after every store has finished with `waitStoreCache`.
    ///
    /// - Parameters:
    ///   - image: The final image.
    ///   - isDerived: Whether `image` is not what `data` decodes to (a thumbnail or a transformed image).
    ///   - original: The full-size image, nil when only a thumbnail was decoded.
    ///   - source: Where the image came from; what came from disk is not written to disk again.
    private func store(_ image: Image, isDerived imageIsDerived: Bool, original: Image?, data: Data?, source: ImageCacheType, response: ImageResponse?) {
        var stores: [Store] = []
        let serializer = context.cacheSerializer
        if isDerived {
            var cacheType = context.originalStoreCacheType ?? .disk
            if source == .disk { cacheType = cacheType.withoutDisk }
            var originalData = data
            if cacheType.includesDisk, let serializer, let original { originalData = serializer(original, data, url) }
            if cacheType != .none, original != nil || originalData != nil {
                stores.append(Store(cache: originalCache, image: original, data: originalData, key: keys.original, cacheType: cacheType, holdsResponse: originalData != nil))
            }
        }
        let cacheType = context.storeCacheType ?? .all
        var finalData = imageIsDerived ? nil : data
        if cacheType.includesDisk, let serializer { finalData = serializer(image, finalData, url) }
        if cacheType != .none {
            stores.append(Store(cache: cache, image: image, data: finalData, key: keys.full, cacheType: cacheType, holdsResponse: !isDerived && finalData != nil))
        }

        let result = ImageLoadResult(
            image: image,
            data: imageIsDerived ? nil : data,
            cacheType: source,
            url: url,
            outcome: source == .none ? .loaded : .cached
        )
        let revalidation = response.map(ImageRevalidation.init(response:)).flatMap { $0.isEmpty ? nil : $0 }
        let waits = options.contains(.waitStoreCache)
        let storing = ContinuousClock.now
        let group = DispatchGroup()
        // The first store that failed, for a load that waits for its stores.
        let firstFailure = Locked<WebImageError?>(nil)
        // An image stored without data is encoded by the cache: a derived one at the manager's quality, unless the
        // context says otherwise.
        var derivedContext = inner
        if derivedContext.encodeOptions == nil { derivedContext.encodeOptions = ImageEncodeOptions(quality: manager.derivedImageQuality) }
        for store in stores {
            if waits { group.enter() }
            let storeContext = store.key == keys.full && imageIsDerived ? derivedContext : inner
            store.cache.store(store.image, data: store.data, key: store.key, options: options, context: storeContext, cacheType: store.cacheType) { [manager, url] outcome in
                switch outcome {
                case .failure(let error):
                    if waits { firstFailure.withLock { if $0 == nil { $0 = error } } }
                    manager.metrics?.recordStoreFailure(in: store.cacheType)
                    manager.instruments.send(
                        .storeFailed(ImageStoreFailure(url: url, key: store.key, cacheType: store.cacheType, error: error)), level: .warning
                    )
                case .success:
                    manager.instruments.send(.stored(url: url, key: store.key, cacheType: store.cacheType))
                }
                // The validators go with the bytes they describe, once those are on disk; a load that waits for
                // the store waits for them too.
                if case .success = outcome, store.holdsResponse, store.cacheType.includesDisk, let revalidation {
                    store.cache.setRevalidation(revalidation, forKey: store.key) { if waits { group.leave() } }
                } else if waits {
                    group.leave()
                }
            }
        }
        if waits {
            group.notify(queue: .global()) { [self] in
                let took = ContinuousClock.now - storing
                metrics.withLock { $0.store = took }
                var stored = result
                stored.storeError = firstFailure.withLock { $0 }
                finish(.success(stored))
            }
        } else {
            finish(.success(result))
        }
    }

    private struct Store {
        let cache: any ImageCaching
        let image: Image?
        let data: Data?
        let key: String
        let cacheType: ImageCacheType
        /// Whether `data` is the loaded body, so that the response's validators belong with it.
        let holdsResponse: Bool
    }

    // MARK: Completion

    /// Tells the caches that were asked that this load is over (its stores, if any, handed to them).
    private func endLoadInCaches() {
        guard !options.contains(.fromLoaderOnly) else { return }
        cache.loadEnded(forKey: keys.full)
        if isDerived { originalCache.loadEnded(forKey: keys.original) }
    }

    private func finish(_ result: Result<ImageLoadResult, WebImageError>) {
        manager.unregister(operation)
        endLoadInCaches()
        let metrics = finalMetrics()
        var result = result
        if case .success(var loaded) = result {
            loaded.metrics = metrics
            result = .success(loaded)
        }
        if let recorder = manager.metrics, !operation.isFinished { Self.record(result, metrics: metrics, to: recorder) }
        let instruments = manager.instruments
        if instruments.isActive(), !operation.isFinished {
            let outcome = result.map(\.cacheType)
            instruments.send(.loadFinished(ImageLoadReport(url: url, key: keys.full, result: outcome, metrics: metrics)))
        }
        operation.finish(result, duringCall: call.isCurrent)
    }

    /// Reports a final result to the manager's metrics: the load by source or the failure by code, the decode
    /// (of the body, or of the disk data a disk hit read) and the stage times the downloader does not report.
    private static func record(
        _ result: Result<ImageLoadResult, WebImageError>, metrics: ImageLoadMetrics, to recorder: ImageMetricsRecorder
    ) {
        switch result {
        case .success(let loaded):
            recorder.recordImageLoad(from: loaded.cacheType)
            if loaded.cacheType == .disk {
                recorder.decodes.increment()
                if let lookup = metrics.cacheLookup { recorder.recordDiskRead(lookup) }
            }
        case .failure(let error):
            recorder.recordFailure(error.code)
        }
        if let decode = metrics.decode {
            recorder.decodes.increment()
            recorder.recordDecode(decode)
        }
        if let transform = metrics.transform { recorder.recordTransform(transform) }
    }

    /// The metrics so far, with the time since the load started.
    private func finalMetrics() -> ImageLoadMetrics {
        let total = ContinuousClock.now - started
        return metrics.withLock { metrics in
            metrics.total = total
            return metrics
        }
    }
}

/// Whether code runs during a call, on the caller's thread: a result ready then may be delivered inline.
private final class CallScope: Sendable {
    private let inCall = Atomic(true)
    private let thread = pthread_self()

    func end() {
        inCall.store(false, ordering: .releasing)
    }

    var isCurrent: Bool {
        inCall.load(ordering: .acquiring) && pthread_equal(pthread_self(), thread) != 0
    }
}
