#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension ImageDownloader {
    /// Downloads `url` and decodes it, sharing the transfer with other callers of the same request.
    ///
    /// Runs the request modifier during the call. Fails at once (on the callback queue) with
    /// `unsupportedScheme` for schemes other than `http` and `https` (and `file` when allowed), with
    /// `invalidDownloadOperation` when the modifier refuses. Later failures: `invalidDownloadStatusCode` (with the
    /// status) outside the accepted codes, `cacheNotModified` for a `304` to a request made conditional by
    /// the context's revalidation, `invalidDownloadContentType`, `invalidDownloadResponse` when the response
    /// modifier refuses, `badImageData` for an empty or undecodable body, and the transport errors (`timedOut`,
    /// `cannotConnect`, `cannotFindHost`, `connectionLost`, `tlsFailure`, `tooManyRedirects`,
    /// `responseTooLarge`), each naming the URL.
    ///
    /// - Returns: An ``ImageDownloadToken`` (as `any ImageLoadToken`) for this caller.
    @discardableResult
    public func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        downloadImage(url: url, options: options, context: context, progress: progress, completion: completion)
    }

    /// ``requestImage(url:options:context:progress:completion:)`` with the concrete token, which also offers
    /// the transfer's metrics.
    @discardableResult
    public func downloadImage(
        url: URL,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping DownloadedImageHandler
    ) -> ImageDownloadToken {
        let latch = CompletionLatch<DownloadedImage>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the download of \(url.absoluteString) was cancelled") },
            handler: completion
        )
        return start(url: url, options: options, context: context, progress: progress, delivery: .image(latch))
    }

    /// Downloads `url` without decoding it: the body (after the response modifier, the checks and the decryptor)
    /// and the response, as Nuke's `loadData`. For servers that store or forward images rather than show them,
    /// such as a prefetch that only fills a disk cache.
    ///
    /// Callers share transfers with every other caller of the same request, image callers included. With no
    /// response modifier or decryptor of its own, a caller is completed as soon as the transfer ends, from the
    /// downloader's thread through its callback queue: the ``WebImageCore/CallbackQueue/default`` queue then
    /// dispatches to a global queue (in a burst, several completions in one dispatch, see
    /// ``ImageDownloaderConfig/completionBatchingInterval``), and ``WebImageCore/CallbackQueue/inline`` runs the
    /// completion on the downloader's thread, which suits only completions that do very little. Failures are those of
    /// ``requestImage(url:options:context:progress:completion:)``, except that nothing is decoded, so an
    /// undecodable body is not one; an empty body still is `badImageData`.
    @discardableResult
    public func downloadData(
        url: URL,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> ImageDownloadToken {
        let latch = CompletionLatch<DownloadedImageData>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the download of \(url.absoluteString) was cancelled") },
            handler: completion
        )
        return start(url: url, options: options, context: context, progress: progress, delivery: .data(latch))
    }

    private func start(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        delivery: ImageDownloadToken.Delivery
    ) -> ImageDownloadToken {
        let token = ImageDownloadToken(url: url, delivery: delivery)
        let engine: CurlEngine
        let request: ImageRequest
        do throws(WebImageError) {
            engine = try curlEngine.get()
            request = try makeRequest(url: url, context: context)
        } catch {
            token.finish(.failure(error), duringCall: true)
            return token
        }
        let priority = Self.priority(for: options)
        let id = nextCallerID()
        let wantsData = token.wantsData
        let decodeKey: DownloadCaller.DecodeKey
        if wantsData {
            let hasOwnProcessing = context.responseModifier != nil || context.decryptor != nil
            decodeKey = hasOwnProcessing
                ? DownloadCaller.DecodeKey(options: ImageDecodeOptions(), soleCaller: id, dataOnly: true)
                : .sharedData
        } else {
            // A coder object of the context's is shared by the callers that bring the same one; a coder value
            // cannot be told apart from another, so its caller decodes alone.
            let coderObject: ObjectIdentifier? = context.imageCoder.flatMap { coder in
                type(of: coder) is AnyObject.Type ? ObjectIdentifier(coder as AnyObject) : nil
            }
            let hasOwnDecode = (context.imageCoder != nil && coderObject == nil)
                || context.responseModifier != nil || context.decryptor != nil
            decodeKey = DownloadCaller.DecodeKey(
                options: context.decodeOptions(for: options, cacheKey: url.absoluteString),
                soleCaller: hasOwnDecode ? id : nil,
                coder: hasOwnDecode ? nil : coderObject
            )
        }
        let caller = DownloadCaller(
            id: id,
            token: token,
            progress: progress,
            callbackQueue: context.callbackQueue ?? .default,
            decodeKey: decodeKey,
            coder: context.imageCoder ?? coder,
            decryptor: context.decryptor,
            responseModifier: context.responseModifier,
            priority: priority,
            wantsPartialImages: !wantsData && options.contains(.progressiveLoad) && progress != nil
        )
        let identity = DownloadIdentity(
            request: request, credentials: config.credentials, options: options, defaults: identityDefaults
        )
        // A download that finished between the lookup and the join refuses the caller: start a new one.
        for _ in 0..<3 {
            let (download, isNew) = self.download(for: identity) {
                SharedDownload(
                    identity: identity,
                    url: request.url,
                    isConditional: !(context.revalidation?.headers.isEmpty ?? true),
                    config: config,
                    executor: executor,
                    owner: self,
                    progressive: caller.wantsPartialImages
                        ? ProgressiveDownload(
                            coder: caller.coder,
                            options: caller.decodeKey.options,
                            executor: executor,
                            interval: config.progressiveDecodeInterval
                        )
                        : nil
                )
            }
            if isNew { download.setInitialPriority(priority) }
            guard download.join(caller) else {
                forget(download)
                continue
            }
            if isNew {
                download.started(engine.start(curlRequest(for: request, options: options, priority: priority), sink: download))
            }
            return token
        }
        token.finish(
            .failure(WebImageError(.invalidDownloadOperation, "could not start the download of \(url.absoluteString)")),
            duringCall: true
        )
        return token
    }
}
