#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        let hooks = self.hooks
        var options = options
        var context = resolved(context)
        if let processor = hooks.optionsProcessor, let processed = processor(url, options, context) {
            (options, context) = processed
        }
        let operation = ImageLoadOperation(url: url, callbackQueue: context.callbackQueue ?? .default, progress: progress, completion: completion)
        guard let url, !url.absoluteString.isEmpty else {
            operation.finish(.failure(WebImageError(.invalidURL, "the image URL is nil or empty")), duringCall: true)
            return operation
        }
        if !options.contains(.retryFailed), let failed = failedURLList.entry(for: url) {
            let message = "\(url.absoluteString) failed recently (\(failed.error.code.name): \(failed.error.message)); "
                + "it is not tried again until it expires, or with retryFailed"
            operation.finish(.failure(WebImageError(.blackListed, message)), duringCall: true)
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
            shouldDownload: hooks.shouldDownload,
            shouldBlock: hooks.shouldBlock
        ).start()
        return operation
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
        let found = FoundImage()
        cache.query(key: key, options: [], context: context, cacheType: .memory) { result in
            if case .success(let hit) = result { found.image = hit.image }
        }
        return found.image
    }
}

/// The result of a memory query that completes during the call.
///
/// `@unchecked Sendable`: written by the query's completion, which runs inline during `query` on the calling
/// thread (memory queries complete during the call), and read by that thread after `query` returns.
private final class FoundImage: @unchecked Sendable {
    var image: Image?
}
