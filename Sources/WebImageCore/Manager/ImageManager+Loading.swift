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
        let settings = settingsIfAny
        // The memory tier first, synchronously, before anything is made or copied: a hit completes here.
        if let url, context.callbackQueue?.runsInline(duringCall: true) ?? true,
           let image = memoryHit(url, options: options, context: context, settings: settings) {
            completion(.success(.memoryHit(image, url: url)))
            return ImageLoadOperation(deliveredDuringCall: url)
        }
        return startLoad(
            url: url, options: options, context: context, settings: settings ?? .none,
            progress: progress, completion: completion
        )
    }

    /// Loads the image at `url` with the default context: the same load as
    /// ``loadImage(url:options:context:progress:completion:)`` with `ImageContext()`, for the common call that names
    /// no context. A memory hit then reads no context at all.
    ///
    /// ```swift
    /// manager.loadImage(url: url) { result in
    ///     if case .success(let loaded) = result { show(loaded.image) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: The image's URL; nil or empty fails with `invalidURL`.
    ///   - options: Flags; see ``ImageOptions``.
    ///   - progress: Bytes received, and partial images with `progressiveLoad`, on the default callback queue.
    ///   - completion: Runs exactly once with the final result on the default callback queue (a memory hit: during
    ///     this call, on this thread); with `refreshCached` and a cached image, first with that image.
    /// - Returns: The operation, to cancel the load; already finished when the result was ready during the call.
    @discardableResult
    public func loadImage(
        url: URL?,
        options: ImageOptions = [],
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping ImageLoadResultHandler
    ) -> ImageLoadOperation {
        let settings = settingsIfAny
        if let url, let image = memoryHit(url, options: options, settings: settings) {
            completion(.success(.memoryHit(image, url: url)))
            return ImageLoadOperation(deliveredDuringCall: url)
        }
        return startLoad(
            url: url, options: options, context: ImageContext(), settings: settings ?? .none,
            progress: progress, completion: completion
        )
    }

    /// The pipeline of a load that the memory tier did not complete during its call: the settings and the options
    /// processor applied, the checks that fail at once, then the job.
    private func startLoad(
        url: URL?,
        options: ImageOptions,
        context: ImageContext,
        settings: Settings,
        progress: ImageLoadProgressHandler?,
        completion: @escaping ImageLoadResultHandler
    ) -> ImageLoadOperation {
        let (options, context) = prepared(url, options: options, context: context, settings: settings)
        let callbackQueue = context.callbackQueue ?? .default
        let operation = ImageLoadOperation(url: url, callbackQueue: callbackQueue, progress: progress, completion: completion)
        guard let url, !url.absoluteString.isEmpty else {
            operation.finish(.failure(WebImageError(.invalidURL, "the image URL is nil or empty")), duringCall: true)
            return operation
        }
        if let refusal = shutdownRefusal(for: url) {
            operation.finish(.failure(refusal), duringCall: true)
            return operation
        }
        if let blocked = blockedError(for: url, options: options) {
            operation.finish(.failure(blocked), duringCall: true)
            return operation
        }
        // Refused here too when the shutdown began since the check above.
        guard register(operation) else {
            operation.finish(.failure(shutdownError(for: url)), duringCall: true)
            return operation
        }
        operation.onCancel { [weak self, weak run = operation.run] in
            if let self, let run { self.unregister(run) }
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

    /// The context of the forms that name none, when their memory hit must read one (the manager has settings).
    static let defaultContext = ImageContext()

    /// ``memoryHit(_:options:context:settings:)`` for the forms that name no context, which reads none when the
    /// manager has no settings: the key is then the URL's string and the manager's cache is asked. A context, even
    /// an empty one, is a large value: reading it costs more than the rest of a hit.
    func memoryHit(_ url: URL, options: ImageOptions, settings: Settings?) -> Image? {
        inlinedMemoryHit(url, options: options, settings: settings)
    }

    /// ``memoryHit(_:options:settings:)`` inlined where it is called: the async form's, whose hit otherwise pays for
    /// a call and a retain that the callback form's does not notice.
    @inline(__always)
    func inlinedMemoryHit(_ url: URL, options: ImageOptions, settings: Settings?) -> Image? {
        guard settings == nil else {
            return memoryHit(url, options: options, context: Self.defaultContext, settings: settings)
        }
        guard memoryHitAllowed(url, options: options), !instruments.isActive() else { return nil }
        let key = url.absoluteString
        guard !key.isEmpty else { return nil }
        let image = cache.memoryImage(forKey: key, options: options, framesOnDemand: false)
        if image != nil, let metrics { metrics.recordMemoryHit() }
        return image
    }

    /// The one memory hit: the image the memory tier gives a load of `url` during its call, for the caller to
    /// deliver as a memory hit (the result is made there, once, in place); counted as a memory load in the
    /// manager's metrics. The callback forms, the async forms
    /// and the view binding all ask here first; nil sends the load down the whole pipeline, which answers the same
    /// for a hit.
    ///
    /// Nil unless the cache (the context's, else the manager's) looks its memory tier up synchronously
    /// (``ImageCaching/memoryImage(forKey:options:framesOnDemand:)``), no options processor is set, no option asks
    /// for more than the memory tier gives (`refreshCached`, `queryMemoryData`, `fromLoaderOnly`), the context
    /// queries memory, the failed list has no say on the URL, and nothing listens to the manager's events (an
    /// observed hit goes down the pipeline, which reports each step and completes it during the call all the
    /// same). Reads the context as it is, with the manager's
    /// settings where it names none, so that a hit copies nothing. Callers with a callback queue check first that
    /// it runs a result ready during the call inline (the async forms resume wherever the result is ready).
    ///
    /// - Parameter settings: The manager's settings, or nil when none is set.
    func memoryHit(_ url: URL, options: ImageOptions, context: ImageContext, settings: Settings?) -> Image? {
        guard settings?.optionsProcessor == nil, memoryHitAllowed(url, options: options), !instruments.isActive(),
              context.queryCacheType?.includesMemory ?? true
        else { return nil }
        let key: String
        if settings == nil, context.cacheKeyFilter == nil, context.thumbnailPixelSize == nil,
           context.disablesTransformer || context.imageTransformer == nil {
            // No filter, thumbnail or transformer: the key is the URL's string.
            key = url.absoluteString
        } else {
            key = Self.keys(
                for: url,
                filter: context.cacheKeyFilter ?? settings?.cacheKeyFilter,
                thumbnail: context.thumbnailPixelSize,
                preserveAspectRatio: context.preserveAspectRatio,
                transformer: context.disablesTransformer ? nil : context.imageTransformer ?? settings?.transformer
            ).full
        }
        guard !key.isEmpty else { return nil }
        // The memory tier reads it only with `matchAnimatedImageClass`.
        let framesOnDemand = options.contains(.matchAnimatedImageClass)
            && (context.framesOnDemand ?? context.decodeOptions?.framesOnDemand ?? false)
        let image = (context.imageCache ?? cache).memoryImage(forKey: key, options: options, framesOnDemand: framesOnDemand)
        if image != nil, let metrics { metrics.recordMemoryHit() }
        return image
    }

    /// Whether the options and the failed list let a load complete from memory during its call: no option asks
    /// for more than the memory tier gives, the URL is not on the failed list unless `retryFailed` says to
    /// try it anyway, and the manager is not shutting down (the pipeline then refuses the load).
    @inline(__always)
    private func memoryHitAllowed(_ url: URL, options: ImageOptions) -> Bool {
        !shutdownBegun.load(ordering: .relaxed)
            && options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .queryMemoryData])
            && (options.contains(.retryFailed) || failedURLList.isEmpty || failedURLList.entry(for: url) == nil)
    }

    /// The image the memory cache holds for `url` and `context` (its full key, thumbnail and transformer
    /// included), or nil; nil too when the cache has no synchronous memory look-up
    /// (``ImageCaching/memoryImage(forKey:options:framesOnDemand:)``). Synchronous, no thread switch, no disk access.
    public func cachedImage(for url: URL?, context: ImageContext = ImageContext()) -> Image? {
        guard let url else { return nil }
        let context = resolved(context)
        let key = Self.keys(for: url, context: context).full
        guard !key.isEmpty else { return nil }
        return (context.imageCache ?? cache).memoryImage(forKey: key, options: [], framesOnDemand: false)
    }
}
