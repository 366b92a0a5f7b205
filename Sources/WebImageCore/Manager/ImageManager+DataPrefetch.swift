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
        if let refusal = shutdownRefusal(for: url) {
            completion(.failure(refusal))
            return {}
        }
        if let blocked = blockedError(for: url, options: loadOptions) {
            completion(.failure(blocked))
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
            let cancel = loadOriginalData(url: url, options: loadOptions, context: context, settings: settings, key: key, cache: cache) { result in
                switch result {
                case .success(let stored) where stored.storeError == nil: latch.finish(.success(.none))
                case .success(let stored): latch.finish(.failure(stored.storeError!))
                case .failure(let error): latch.finish(.failure(error))
                }
            }
            latch.onCancel(cancel)
        }
        return { latch.cancel() }
    }

    /// The bytes a load of the original image brought, and why storing them failed, if it did.
    struct StoredData: Sendable {
        let data: Data
        let storeError: WebImageError?
    }

    /// Loads the bytes of `url` with the loader (which must load bare bytes) and stores them on disk under `key`
    /// with their validators, then completes once, on a library thread: with the bytes (and the store's failure,
    /// if any), or with the error. Refuses, with `notInCache`, a load that `fromCacheOnly` or ``shouldDownload``
    /// forbids. Records the failure on the failed list, or takes the URL off it on success, as a load does.
    ///
    /// - Parameter context: The load's context, prepared, with the inline callback queue.
    /// - Returns: Cancels the load.
    func loadOriginalData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        settings: Settings,
        key: String,
        cache: any ImageCaching,
        completion: @escaping @Sendable (Result<StoredData, WebImageError>) -> Void
    ) -> @Sendable () -> Void {
        if options.contains(.fromCacheOnly) {
            completion(.failure(WebImageError(.notInCache, "\(url.absoluteString) is not in the cache, and fromCacheOnly forbids loading it")))
            return {}
        }
        if let shouldDownload = settings.shouldDownload, !shouldDownload(url) {
            completion(.failure(WebImageError(.notInCache, "the manager's shouldDownload declined \(url.absoluteString)")))
            return {}
        }
        let loader = context.imageLoader ?? self.loader
        guard let dataLoader = loader as? any ImageDataLoading, dataLoader.canRequestData(for: url) else {
            completion(.failure(WebImageError(.unsupportedScheme, "no loader can load the bytes of \(url.absoluteString)")))
            return {}
        }
        let token = dataLoader.requestData(url: url, options: options, context: context, progress: nil) { [self] result in
            switch result {
            case .failure(let error):
                recordFailure(url, error: error, loader: loader, shouldBlock: settings.shouldBlockFailedURL)
                completion(.failure(error))
            case .success(let body):
                failedURLList.remove(url)
                let revalidation = body.response.map(ImageRevalidation.init(response:)) ?? ImageRevalidation()
                cache.store(nil, data: body.data, key: key, options: options, context: context, cacheType: .disk) { stored in
                    if case .failure(let error) = stored {
                        completion(.success(StoredData(data: body.data, storeError: error)))
                    } else if revalidation.isEmpty {
                        completion(.success(StoredData(data: body.data, storeError: nil)))
                    } else {
                        cache.setRevalidation(revalidation, forKey: key) {
                            completion(.success(StoredData(data: body.data, storeError: nil)))
                        }
                    }
                }
            }
        }
        return { token.cancel() }
    }
}
