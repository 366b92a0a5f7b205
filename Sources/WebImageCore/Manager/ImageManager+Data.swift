#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// Loads the encoded bytes of a variant of the image at `url`, for a server that sends them on: the original as
    /// it came, or a thumbnail or transformed image, in the image's own format or ``ImageContext/encodedFormat``, at
    /// ``derivedImageQuality`` or the context's ``ImageContext/encodeOptions``.
    ///
    /// ```swift
    /// var context = ImageContext()
    /// context.thumbnailPixelSize = PixelSize(square: 256)
    /// context.encodedFormat = .preferred(forAccept: request.accept, hasAlpha: false, isAnimated: false)
    /// let variant = try await manager.loadImageData(url: url, context: context)
    /// respond(variant.data, contentType: variant.format.mimeType)
    /// ```
    ///
    /// The variant's key is the image's cache key (with SDWebImage's thumbnail and transformer suffixes), with a
    /// suffix of its own when a format or encode options are asked for. In order:
    /// 1. The encoded memory tier (``encodedMemoryCache``), during the call.
    /// 2. The bytes on disk under the variant's key, served without decoding (only their header is read).
    /// 3. For the original as it came: the loader's bytes, stored on disk under the original key.
    /// 4. Otherwise: the image, as ``loadImage(url:options:context:progress:completion:)`` finds or loads it
    ///    (decoded reduced for a thumbnail, the original kept on disk), transformed, then encoded once and stored
    ///    on disk under the variant's key. An original asked for in its own format is its bytes as they came.
    ///
    /// Concurrent calls for one variant share one load, one decode and one encode; cancelling one leaves the others
    /// their result. The options processor, the failed list, ``shouldDownload``, `retryFailed`, `fromCacheOnly`,
    /// `fromLoaderOnly` (which skips both caches) and `waitStoreCache` apply as for a load; progressive loading does
    /// not.
    ///
    /// - Parameters:
    ///   - url: The image's URL; nil or empty fails with `invalidURL`.
    ///   - completion: Runs exactly once on the context's callback queue (a memory hit: during this call, on this
    ///     thread, with the default queue). A variant that was made but could not be stored is still a success,
    ///     with ``ImageDataResult/storeError`` set.
    /// - Returns: The call, to cancel it by.
    @discardableResult
    public func loadImageData(
        url: URL?,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        completion: @escaping ImageDataResultHandler
    ) -> ImageDataOperation {
        // The encoded memory tier first, before anything is made or copied: a hit completes here.
        let lookup = url.map { encodedMemoryLookup($0, options: options, context: context) } ?? .notApplicable
        if case .hit(let hit) = lookup {
            completion(.success(hit))
            return ImageDataOperation(url: url, latch: nil)
        }
        return startDataLoad(url: url, options: options, context: context, lookup: lookup, completion: completion)
    }

    /// The whole path of a call the encoded memory tier did not complete during its call: the settings and the
    /// options processor applied, the checks that fail at once, the tier (unless `lookup` asked it already), then
    /// the variant's flight.
    private func startDataLoad(
        url: URL?, options: ImageOptions, context: ImageContext, lookup: EncodedLookup,
        completion: @escaping ImageDataResultHandler
    ) -> ImageDataOperation {
        let settings = currentSettings
        let (options, context) = prepared(url, options: options, context: context, settings: settings)
        let plan = url.flatMap { url in
            url.absoluteString.isEmpty ? nil : VariantPlan(manager: self, url: url, options: options, context: context)
        }
        let latch = CompletionLatch<ImageDataResult>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the data load of \(url?.absoluteString ?? "nil") was cancelled") },
            handler: completion
        )
        let operation = ImageDataOperation(url: url, latch: latch)
        guard let plan else {
            latch.finish(.failure(WebImageError(.invalidURL, "the image URL is nil or empty")), duringCall: true)
            return operation
        }
        if let refusal = shutdownRefusal(for: plan.url) {
            latch.finish(.failure(refusal), duringCall: true)
            return operation
        }
        if let blocked = blockedError(for: plan.url, options: options) {
            latch.finish(.failure(blocked), duringCall: true)
            return operation
        }
        guard let coder = plan.coder else {
            let error = WebImageError(.unsupportedFormat, "the manager has no coder to read or encode the bytes of \(plan.url.absoluteString)")
            latch.finish(.failure(error), duringCall: true)
            return operation
        }
        let observed = instruments.isActive()
        if observed { instruments.send(.dataLoadStarted(url: plan.url, key: plan.key)) }
        if case .notApplicable = lookup, plan.readsCaches, let hit = encodedMemoryCache.encodedImage(forKey: plan.key) {
            metrics?.recordDataLoad(from: .memory)
            if observed {
                instruments.send(.cacheHit(url: plan.url, key: plan.key, cacheType: .memory))
                instruments.send(.dataLoadFinished(ImageLoadReport(url: plan.url, key: plan.key, result: .success(.memory), metrics: nil)))
            }
            latch.finish(.success(plan.result(hit, from: .memory)), duringCall: true)
            return operation
        }
        let ticket = variants.join(plan.flightKey, receiver: { [metrics, instruments] result in
            // The variant's store, if any, is handed to the cache: a claim the cache holds on its key can go.
            if plan.readsCaches { plan.cache.loadEnded(forKey: plan.key) }
            if let metrics {
                switch result {
                case .success(let made): metrics.recordDataLoad(from: made.cacheType)
                case .failure(let error): metrics.recordFailure(error.code)
                }
            }
            if observed {
                let outcome = result.map(\.cacheType)
                instruments.send(.dataLoadFinished(ImageLoadReport(url: plan.url, key: plan.key, result: outcome, metrics: nil)))
            }
            latch.finish(result)
        }) { [self] flight in
            makeVariant(plan, coder: coder, settings: settings, flight: flight)
        }
        latch.onCancel { [variants, metrics, instruments] in
            variants.leave(ticket)
            metrics?.recordFailure(.cancelled)
            if observed {
                let cancelled = WebImageError(.cancelled, "the data load of \(plan.url.absoluteString) was cancelled")
                instruments.send(.dataLoadFinished(ImageLoadReport(url: plan.url, key: plan.key, result: .failure(cancelled), metrics: nil)))
            }
        }
        return operation
    }

    /// ``loadImageData(url:options:context:completion:)`` as an async call: returns the bytes or throws the
    /// ``WebImageError``. Cancelling the task cancels the call (`cancelled`); the context's callback queue is not
    /// used, the call resumes wherever the result is ready.
    nonisolated(nonsending) public func loadImageData(
        url: URL?, options: ImageOptions = [], context: ImageContext = ImageContext()
    ) async throws(WebImageError) -> ImageDataResult {
        var context = context
        context.callbackQueue = .inline
        // A hit returns at once, with no continuation.
        let lookup = url.map { encodedMemoryLookup($0, options: options, context: context) } ?? .notApplicable
        if case .hit(let hit) = lookup { return hit }
        let pending = PendingCancellation<ImageDataOperation> { $0.cancel() }
        let result: Result<ImageDataResult, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.set(startDataLoad(url: url, options: options, context: context, lookup: lookup) {
                    continuation.resume(returning: $0)
                })
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }

    /// What the encoded memory tier says of a call during the call.
    private enum EncodedLookup {
        case hit(ImageDataResult)
        case miss
        /// The tier was not asked: the call's whole path asks it once the settings are applied.
        case notApplicable
    }

    /// The encoded memory tier's answer to a call during the call, for a context read as it is: not applicable
    /// unless no manager setting or cache key filter takes part in the key, no option asks for more than the tier
    /// gives, the failed list has no say on the URL, the callback queue runs a result ready during the call
    /// inline, and nothing listens to the manager's events (an observed hit is reported on the longer path).
    private func encodedMemoryLookup(_ url: URL, options: ImageOptions, context: ImageContext) -> EncodedLookup {
        guard !shutdownBegun.load(ordering: .relaxed),
              settingsIfAny == nil, context.cacheKeyFilter == nil, !url.absoluteString.isEmpty,
              options.isDisjoint(with: [.fromLoaderOnly, .refreshCached]),
              context.callbackQueue?.runsInline(duringCall: true) ?? true,
              options.contains(.retryFailed) || failedURLList.isEmpty || failedURLList.entry(for: url) == nil,
              !instruments.isActive()
        else { return .notApplicable }
        let key = variantKeys.key(for: VariantKeys.Inputs(url: url, context: context)) {
            VariantPlan.keys(for: url, context: context, derivedImageQuality: derivedImageQuality).variant
        }
        guard let hit = encodedMemoryCache.encodedImage(forKey: key) else { return .miss }
        metrics?.recordDataLoad(from: .memory)
        return .hit(ImageDataResult(
            data: hit.data, format: hit.format, pixelSize: hit.pixelSize, cacheType: .memory, url: url, key: key
        ))
    }

    // MARK: Making a variant

    /// The bytes on disk under the variant's key, else the original's bytes or a new encoding; one per flight.
    private func makeVariant(_ plan: VariantPlan, coder: any ImageCoding, settings: Settings, flight: VariantFlights.Flight) {
        let clock = VariantClock()
        guard plan.readsCaches else { return produce(plan, coder: coder, settings: settings, flight: flight, clock: clock) }
        flight.onCancel { plan.cache.loadEnded(forKey: plan.key) }
        plan.cache.diskData(forKey: plan.key) { [self] data in
            guard flight.isWanted else { return }
            let clock = clock.lookedUp()
            if let data, let found = plan.describe(data, coder: coder) {
                keepEncoded(found, forKey: plan.key)
                var result = plan.result(found, from: .disk)
                result.metrics = clock.metrics()
                flight.finish(.success(result))
            } else {
                produce(plan, coder: coder, settings: settings, flight: flight, clock: clock)
            }
        }
    }

    /// Loads the original's bytes, or makes the variant from the image.
    private func produce(
        _ plan: VariantPlan, coder: any ImageCoding, settings: Settings, flight: VariantFlights.Flight, clock: VariantClock
    ) {
        guard plan.isOriginal else { return encode(plan, coder: coder, flight: flight, clock: clock) }
        let loading = ContinuousClock.now
        let cancel = loadOriginalData(
            url: plan.url, options: plan.options, context: plan.context, settings: settings, key: plan.key, cache: plan.cache
        ) { [self] result in
            switch result {
            case .failure(let error):
                flight.finish(.failure(error))
            case .success(let stored):
                let found: EncodedImage
                do throws(WebImageError) {
                    found = try plan.describeLoaded(stored.data, coder: coder)
                } catch {
                    flight.finish(.failure(error))
                    return
                }
                keepEncoded(found, forKey: plan.key)
                var result = plan.result(found, from: .none)
                result.storeError = stored.storeError
                var metrics = clock.metrics()
                metrics.load = ContinuousClock.now - loading
                result.metrics = metrics
                flight.finish(.success(result))
            }
        }
        flight.onCancel(cancel)
    }

    /// Loads the image (as a load would, storing the original but not the variant's image), then encodes it
    /// once on the executor, stores the bytes and hands them to the flight.
    private func encode(_ plan: VariantPlan, coder: any ImageCoding, flight: VariantFlights.Flight, clock: VariantClock) {
        var context = plan.context
        // The original goes to disk as it came; the variant goes there as the bytes made here.
        context.storeCacheType = plan.isDerived ? ImageCacheType.none : .disk
        // The disk entry under this key was just missed.
        if plan.key == plan.fullKey, plan.readsCaches { context.queryCacheType = .memory }
        let options = plan.options.subtracting([.progressiveLoad, .refreshCached, .waitStoreCache])
        let load = loadImage(url: plan.url, options: options, context: context) { [self] result in
            switch result {
            case .failure(let error):
                flight.finish(.failure(error))
            case .success(let loaded):
                guard loaded.isFinal else { return }
                executor.submit { [self] in
                    guard flight.isWanted else { return }
                    let made: EncodedImage
                    let encoding = ContinuousClock.now
                    let encoded: Duration
                    do throws(WebImageError) {
                        made = try plan.encode(loaded, coder: coder)
                        encoded = ContinuousClock.now - encoding
                        if let metrics {
                            metrics.encodes.increment()
                            metrics.recordEncode(encoded)
                        }
                    } catch {
                        flight.finish(.failure(WebImageError(error.code, "encoding the variant \(plan.key) failed: \(error.message)")))
                        return
                    }
                    keepEncoded(made, forKey: plan.key)
                    let storing = ContinuousClock.now
                    store(made, plan: plan) { storeError in
                        var result = plan.result(made, from: .none)
                        result.storeError = storeError
                        result.metrics = clock.metrics(
                            after: loaded.metrics, encode: encoded,
                            store: plan.options.contains(.waitStoreCache) ? ContinuousClock.now - storing : nil
                        )
                        flight.finish(.success(result))
                    }
                }
            }
        }
        flight.onCancel { load.cancel() }
    }

    /// Puts `encoded` in the encoded memory tier, and reports the tier's size to the metrics.
    private func keepEncoded(_ encoded: EncodedImage, forKey key: String) {
        encodedMemoryCache.setEncodedImage(encoded, forKey: key)
        guard let metrics else { return }
        let statistics = encodedMemoryCache.statistics
        metrics.recordTier(.encodedMemory, bytes: statistics.totalBytes, entries: statistics.count, evictions: statistics.evictions)
    }

    /// Writes a variant made here to disk under its key; completes at once, or once written with
    /// `waitStoreCache`. A failed write is reported as an event, and with `waitStoreCache` on the result.
    private func store(_ made: EncodedImage, plan: VariantPlan, completion: @escaping @Sendable (WebImageError?) -> Void) {
        let waits = plan.options.contains(.waitStoreCache)
        guard (plan.context.storeCacheType ?? .all).includesDisk else { return completion(nil) }
        plan.cache.store(nil, data: made.data, key: plan.key, options: plan.options, context: plan.context, cacheType: .disk) { [self] outcome in
            var failure: WebImageError?
            if case .failure(let error) = outcome {
                failure = error
                metrics?.recordStoreFailure(in: .disk)
                instruments.send(.storeFailed(ImageStoreFailure(url: plan.url, key: plan.key, cacheType: .disk, error: error)), level: .warning)
            }
            if waits { completion(failure) }
        }
        if !waits { completion(nil) }
    }
}

/// The clock of one variant's making, for ``ImageDataResult/metrics``: when it started, and how long the disk
/// look-up of the variant's key took.
private struct VariantClock: Sendable {
    let started = ContinuousClock.now
    var lookup: Duration?

    /// The clock once the disk look-up has answered.
    func lookedUp() -> VariantClock {
        var clock = self
        clock.lookup = ContinuousClock.now - started
        return clock
    }

    /// The metrics so far: the total until now, and the look-up.
    func metrics() -> ImageLoadMetrics {
        ImageLoadMetrics(total: ContinuousClock.now - started, cacheLookup: lookup)
    }

    /// The metrics of a variant made from an image: the image load's steps, the look-up of the variant's key
    /// added to its own, then `encode` and `store`.
    func metrics(after load: ImageLoadMetrics?, encode: Duration, store: Duration?) -> ImageLoadMetrics {
        var metrics = load ?? ImageLoadMetrics()
        if let lookup { metrics.cacheLookup = (metrics.cacheLookup ?? .zero) + lookup }
        metrics.encode = encode
        metrics.store = store
        metrics.total = ContinuousClock.now - started
        return metrics
    }
}
