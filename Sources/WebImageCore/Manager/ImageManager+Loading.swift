#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

extension ImageManager {
    /// Loads the image at `url`: from the memory cache, the disk cache, or the loader, then transformed and
    /// stored as the options and context say (SDWebImage's `loadImageWithURL:options:context:progress:completed:`).
    ///
    /// ```swift
    /// var context = ImageContext()
    /// context.thumbnailPixelSize = PixelSize(square: 256)
    /// let operation = manager.loadImage(url: url, options: [.retryFailed], context: context) { result in
    ///     switch result {
    ///     case .success(let loaded): print(loaded.image.pixelSize, loaded.cacheType)
    ///     case .failure(let error): print(error)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The image's URL; nil or empty fails with `invalidURL`.
    ///   - options: Flags; see ``ImageOptions``.
    ///   - context: Per-load settings; the manager's transformer, cache key filter and serializer apply where it
    ///     names none, then the options processor may rewrite both.
    ///   - progress: Bytes received, and partial images with `progressiveLoad`, on the callback queue; reports
    ///     that pile up are merged, and none comes after the completion.
    ///   - completion: Runs exactly once with the final result on the context's callback queue (a memory hit:
    ///     during this call, on this thread, with the default queue). With `refreshCached` and a cached image it
    ///     runs first with that image (outcome ``ImageLoadResult/Outcome/refreshing``), then once more with the
    ///     final result: a new image, or ``ImageLoadResult/Outcome/notModified``.
    /// - Returns: The operation, to cancel the load; already finished when the result was ready during the call.
    @discardableResult
    public func loadImage(
        url: URL?,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping ImageLoadResultHandler
    ) -> ImageLoadOperation {
        let settings = currentSettings
        // The memory tier first, synchronously, before anything is made or copied: a hit completes here.
        if settings.optionsProcessor == nil, let url, let hit = memoryHitDuringCall(
            url, options: options, context: context, callbackQueue: context.callbackQueue ?? .default, settings: settings
        ) {
            completion(.success(hit))
            return ImageLoadOperation(deliveredDuringCall: url)
        }
        let (options, context) = prepared(url, options: options, context: context, settings: settings)
        let callbackQueue = context.callbackQueue ?? .default
        let operation = ImageLoadOperation(url: url, callbackQueue: callbackQueue, progress: progress, completion: completion)
        guard let url, !url.absoluteString.isEmpty else {
            operation.finish(.failure(WebImageError(.invalidURL, "the image URL is nil or empty")), duringCall: true)
            return operation
        }
        if let blocked = blockedError(for: url, options: options) {
            operation.finish(.failure(blocked), duringCall: true)
            return operation
        }
        register(operation)
        operation.onCancel { [weak self, weak operation] in
            if let self, let operation { self.unregister(operation) }
        }
        ImageLoadJob(
            manager: self,
            operation: operation,
            url: url,
            options: options,
            context: context,
            shouldDownload: settings.shouldDownload,
            shouldBlock: settings.shouldBlockFailedURL
        ).start()
        return operation
    }

    /// The memory tier's image for a load that may complete during its call: the cache is an ``ImageCache``,
    /// the callback queue runs results ready during the call inline, and no option asks for more than the memory
    /// tier gives (`refreshCached`, `queryMemoryData`, `fromLoaderOnly`) or for the failed list's verdict on a
    /// URL it holds. Reads the caller's context as it is, with the manager's settings where it names none, so that
    /// a hit copies nothing. Nil sends the load down the whole pipeline, which answers the same for a hit.
    ///
    /// - Parameter callbackQueue: Where the result would go (the async forms pass `.inline`).
    func memoryHitDuringCall(
        _ url: URL, options: ImageOptions, context: ImageContext, callbackQueue: CallbackQueue, settings: Settings
    ) -> ImageLoadResult? {
        guard options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .queryMemoryData]),
              (context.queryCacheType ?? .all).includesMemory,
              callbackQueue.runsInline(duringCall: true),
              let cache = context.imageCache.map({ $0 as? ImageCache }) ?? memoryCacheOwner,
              options.contains(.retryFailed) || failedURLList.isEmpty || failedURLList.entry(for: url) == nil
        else { return nil }
        let key = Self.keys(
            for: url,
            filter: context.cacheKeyFilter ?? settings.cacheKeyFilter,
            thumbnail: context.thumbnailPixelSize,
            preserveAspectRatio: context.preserveAspectRatio,
            transformer: context.disablesTransformer ? nil : context.imageTransformer ?? settings.transformer
        ).full
        let framesOnDemand = context.framesOnDemand ?? context.decodeOptions?.framesOnDemand ?? false
        guard !key.isEmpty, let image = cache.memoryImage(forKey: key, options: options, framesOnDemand: framesOnDemand) else {
            return nil
        }
        return ImageLoadResult(image: image, data: nil, cacheType: .memory, url: url, outcome: .cached)
    }

    /// Whether ``loadImage(url:options:context:progress:completion:)`` with these arguments would complete during
    /// its call, from the memory cache: the view binding then sets no placeholder first.
    func completesFromMemoryDuringCall(_ url: URL, options: ImageOptions, context: ImageContext) -> Bool {
        let settings = currentSettings
        guard settings.optionsProcessor == nil else { return false }
        return memoryHitDuringCall(
            url, options: options, context: context, callbackQueue: context.callbackQueue ?? .default, settings: settings
        ) != nil
    }

    /// The image the memory cache holds for `url` and `context` (its full key, thumbnail and transformer
    /// included), or nil. Synchronous, no thread switch, no disk access.
    public func cachedImage(for url: URL?, context: ImageContext = ImageContext()) -> Image? {
        guard let url else { return nil }
        var context = resolved(context)
        let key = Self.keys(for: url, context: context).full
        let cache = context.imageCache ?? self.cache
        context.callbackQueue = .inline
        context.thumbnailPixelSize = nil
        context.preserveAspectRatio = nil
        // A memory query completes during the call; a cache that answers later is too late for this method.
        let found = Mutex<Image?>(nil)
        let inCall = Atomic(true)
        cache.query(key: key, options: [], context: context, cacheType: .memory) { result in
            guard inCall.load(ordering: .acquiring), case .success(let hit) = result else { return }
            found.withLock { $0 = hit.image }
        }
        inCall.store(false, ordering: .releasing)
        return found.withLock { $0 }
    }
}
