#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import WebImageCore

extension ImageDownloader {
    /// Downloads `url` and decodes it in Core, sharing the transfer with other callers of the same request and the
    /// decode with other callers of the same load (see ``WebImageCore/DecodingImageLoader``).
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
    /// - Returns: A token for this caller.
    @discardableResult
    public func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        decodes.requestImage(
            from: DecodedSource(downloader: self), url: url, options: options, context: context, progress: progress,
            partition: headerVersion, completion: completion
        )
    }

    /// ``requestImage(url:options:context:progress:completion:)`` with a token that also offers the transfer's
    /// metrics.
    @discardableResult
    public func downloadImage(
        url: URL,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping DownloadedImageHandler
    ) -> ImageDownloadToken {
        // The caller's latch goes to Core's decoding as it is, so that the default queue runs the completion on the
        // decoding thread; the metrics are recorded on the token just before.
        let extras = ImageDownloadToken.Extras()
        let latch = CompletionLatch<DownloadedImage>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the download of \(url.absoluteString) was cancelled") },
            handler: { result in
                if case .success(let loaded) = result, let metrics = loaded.metrics { extras.record(metrics) }
                completion(result)
            }
        )
        decodes.requestImage(
            from: DecodedSource(downloader: self), url: url, options: options, context: context, progress: progress,
            partition: headerVersion, latch: latch
        )
        return ImageDownloadToken(url: url, delivery: .image(latch), extras: extras)
    }

    /// ``downloadData(url:options:context:progress:completion:)`` as an ``WebImageCore/ImageDataLoading`` loader.
    @discardableResult
    public func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken {
        downloadData(url: url, options: options, context: context, progress: progress, completion: completion)
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
    /// undecodable body is not one; an empty body still is `badImageData`. With `.progressiveLoad` and a progress
    /// handler, each report carries every byte so far (``WebImageCore/ImageLoadProgress/receivedData``) when this
    /// caller started the transfer.
    @discardableResult
    public func downloadData(
        url: URL,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> ImageDownloadToken {
        download(url: url, options: options, context: context, progress: progress, heldBodies: nil, completion: completion)
    }

    /// Starts a data caller: serves it from a body that Core is still decoding for the same request, else joins
    /// or starts the request's transfer.
    ///
    /// - Parameter heldBodies: Where to hold the body while Core decodes it, for a caller that Core's decoding
    ///   made; nil for others.
    private func download(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        heldBodies: HeldBodies?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> ImageDownloadToken {
        let latch = CompletionLatch<DownloadedImageData>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the download of \(url.absoluteString) was cancelled") },
            handler: completion
        )
        let token = ImageDownloadToken(url: url, delivery: .data(latch))
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
        let caller = DownloadCaller(
            token: token,
            latch: latch,
            progress: progress,
            callbackQueue: context.callbackQueue ?? .default,
            responseModifier: context.responseModifier,
            decryptor: context.decryptor,
            wantsBody: options.contains(.progressiveLoad) && progress != nil,
            heldBodies: heldBodies
        )
        let identity = DownloadIdentity(
            request: request, credentials: config.credentials, options: options, defaults: identityDefaults
        )
        let member = caller.member(executor: executor)
        if let held = self.heldBodies.end(for: identity) {
            member.receive(held)
            return token
        }
        let ticket = transfers.join(identity, member) {
            SharedDownload(
                identity: identity,
                url: request.url,
                isConditional: !(context.revalidation?.headers.isEmpty ?? true),
                config: config,
                owner: self,
                priority: priority,
                isProgressive: caller.wantsBody,
                metrics: metrics,
                log: debugLog
            )
        } start: { [metrics, debugLog] flight in
            let download = flight.work
            download.attach(flight)
            flight.onCancel { download.abandon() }
            metrics?.transfersInFlight.increment()
            debugLog?.debug("transfer started", metadata: ["url": LogMetadata.url(request.url)])
            download.started(engine.start(curlRequest(for: request, options: options, priority: priority), sink: download))
        }
        if !ticket.started { ticket.work.raise(to: priority) }
        latch.onCancel { [transfers] in transfers.leave(ticket) }
        return token
    }

    /// The downloader as Core's decoding sees it: a data loader whose bodies are held while they are decoded, so
    /// that a data caller of the same request is served from them meanwhile.
    struct DecodedSource: ImageDataLoading {
        let downloader: ImageDownloader

        func canRequestData(for url: URL) -> Bool {
            downloader.canRequestData(for: url)
        }

        func requestData(
            url: URL,
            options: ImageOptions,
            context: ImageContext,
            progress: ImageLoadProgressHandler?,
            completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
        ) -> any ImageLoadToken {
            downloader.download(
                url: url, options: options, context: context, progress: progress,
                heldBodies: downloader.heldBodies, completion: completion
            )
        }
    }
}
