#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// Puts the bytes of `url` on disk under its original cache key without decoding them, for a prefetch that
    /// only warms the disk cache. The options processor, the failed list and ``shouldDownload`` apply as for a
    /// load; a URL already on disk is not loaded. A URL no loader can load as bare bytes (a `data:` URL) fails
    /// with `unsupportedScheme` and is not put on the failed list.
    ///
    /// - Parameter completion: Called once, on a library thread: with the tier that already held the data
    ///   (`.disk`) or `.none` when it was loaded and stored (its validators too), or with the error.
    /// - Returns: Cancels the load.
    func storeData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        completion: @escaping @Sendable (Result<ImageCacheType, WebImageError>) -> Void
    ) -> @Sendable () -> Void {
        let settings = currentSettings
        let (loadOptions, prepared) = prepared(url, options: options, context: context, settings: settings)
        var inline = prepared
        inline.callbackQueue = .inline
        let context = inline
        if let blocked = blockedError(for: url, options: loadOptions) {
            completion(.failure(blocked))
            return {}
        }
        let loader = context.imageLoader ?? self.loader
        guard let dataLoader = loader as? any ImageDataLoading, dataLoader.canRequestData(for: url) else {
            completion(.failure(WebImageError(.unsupportedScheme, "no loader can load the bytes of \(url.absoluteString)")))
            return {}
        }
        let key = Self.keys(for: url, context: context).original
        let cache = context.originalImageCache ?? context.imageCache ?? self.cache
        let latch = CompletionLatch<ImageCacheType>(
            callbackQueue: .inline,
            cancellationError: WebImageError(.cancelled, "the prefetch of \(url.absoluteString) was cancelled"),
            handler: completion
        )
        cache.contains(key: key, cacheType: .disk) { [self] found in
            guard !latch.isDone else { return }
            guard found == .none else {
                latch.finish(.success(.disk))
                return
            }
            if let shouldDownload = settings.shouldDownload, !shouldDownload(url) {
                latch.finish(.failure(WebImageError(.notInCache, "the manager's shouldDownload declined \(url.absoluteString)")))
                return
            }
            let token = dataLoader.requestData(url: url, options: loadOptions, context: context, progress: nil) { [self] result in
                switch result {
                case .failure(let error):
                    recordFailure(url, error: error, loader: loader, shouldBlock: settings.shouldBlockFailedURL)
                    latch.finish(.failure(error))
                case .success(let body):
                    failedURLList.remove(url)
                    let revalidation = body.response.map(ImageRevalidation.init(response:)) ?? ImageRevalidation()
                    cache.store(nil, data: body.data, key: key, options: loadOptions, context: context, cacheType: .disk) { stored in
                        if case .failure(let error) = stored {
                            latch.finish(.failure(error))
                        } else if revalidation.isEmpty {
                            latch.finish(.success(.none))
                        } else {
                            cache.setRevalidation(revalidation, forKey: key) { latch.finish(.success(.none)) }
                        }
                    }
                }
            }
            latch.onCancel { token.cancel() }
        }
        return { latch.cancel() }
    }
}
