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
        completion: @escaping ImageLoadCompletion
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
        completion: @escaping ImageLoadCompletion
    ) -> ImageDownloadToken {
        let callbackQueue = context.callbackQueue ?? .default
        let latch = CompletionLatch<ImageLoaderResult>(
            callbackQueue: callbackQueue,
            cancellationError: WebImageError(.cancelled, "the download of \(url.absoluteString) was cancelled"),
            handler: completion
        )
        let token = ImageDownloadToken(url: url, latch: latch)
        let engine: CurlEngine
        let request: ImageRequest
        do throws(WebImageError) {
            engine = try curlEngine.get()
            request = try makeRequest(url: url, context: context)
        } catch {
            latch.finish(.failure(error), duringCall: true)
            return token
        }
        let priority = Self.priority(for: options)
        let id = nextCallerID()
        let hasOwnDecode = context.imageCoder != nil || context.responseModifier != nil || context.decryptor != nil
        let caller = DownloadCaller(
            id: id,
            token: token,
            progress: progress,
            callbackQueue: callbackQueue,
            decodeKey: DownloadCaller.DecodeKey(
                options: context.decodeOptions(for: options, cacheKey: url.absoluteString),
                soleCaller: hasOwnDecode ? id : nil
            ),
            coder: context.imageCoder ?? coder,
            decryptor: context.decryptor,
            responseModifier: context.responseModifier,
            priority: priority,
            wantsPartialImages: options.contains(.progressiveLoad) && progress != nil
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
                    onDone: { [weak self] in self?.forget($0) },
                    cancelTransfer: { [weak engine] in engine?.cancel($0) },
                    raisePriority: { [weak engine] in engine?.setPriority($0, $1) },
                    progressive: caller.wantsPartialImages
                        ? ProgressiveDownload(coder: caller.coder, options: caller.decodeKey.options, executor: executor)
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
        latch.finish(.failure(WebImageError(.invalidDownloadOperation, "could not start the download of \(url.absoluteString)")), duringCall: true)
        return token
    }
}
