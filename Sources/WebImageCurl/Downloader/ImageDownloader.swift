#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CoreMetrics
import Logging
import WebImageCore

/// Downloads image bytes over HTTP and HTTPS with libcurl, as SDWebImage's `SDWebImageDownloader`, with one
/// transfer per distinct request however many callers want it; as an ``WebImageCore/ImageLoading`` it also
/// decodes them, in Core.
///
/// ```swift
/// let downloader = ImageDownloader(coder: ImageCoderRegistry.shared)
/// let token = downloader.requestImage(url: url, options: [], context: ImageContext(), progress: nil) { result in
///     if case .success(let loaded) = result { use(loaded.image) }
/// }
/// token.cancel()   // completes this caller with `cancelled`; the transfer goes on for its other callers
/// ```
///
/// - **Threads.** One dedicated thread runs libcurl's multi interface; it only moves bytes. Response modifiers,
///   decryptors and decoding run on ``executor``; completions and progress on each caller's callback queue.
/// - **Sharing.** Callers share a transfer when their final requests are the same: URL, method, every header
///   (after the request modifier), the credentials, and the cookie and TLS options. Image callers
///   (``requestImage(url:options:context:progress:completion:)``) also share one decode per distinct load in Core
///   (see ``WebImageCore/DecodingImageLoader``), over transfers shared with data callers.
/// - **Progressive loads.** With `.progressiveLoad` and a progress handler, a data caller's progress reports carry
///   every byte so far, and an image caller gets partial images decoded from them, at most one partial decode at
///   a time per load, with or without a `Content-Length`. The caller that starts a transfer decides whether it is
///   progressive; partial images never come after the completion.
/// - **Cancellation.** A caller's token completes it at once with `cancelled`, and nothing reaches it after
///   that. The transfer stops when its last caller cancels.
/// - **Shutdown.** ``invalidate()`` (also run when the downloader is released) cancels every transfer,
///   completes every caller with `cancelled` and stops the thread.
public final class ImageDownloader: ImageLoading, ImageDataLoading {
    /// The settings the downloader was made with; its `httpHeaders` stay those it was made with, while
    /// ``httpHeaders`` follows ``setValue(_:forHeader:)``.
    public let config: ImageDownloaderConfig
    /// Where response modifiers, decryptors and decoding run.
    public let executor: BoundedExecutor
    /// Core's decoding of this downloader's bytes, for image callers.
    let decodes: SharedDecodes
    /// The transfers in progress or waiting to start, one per distinct request, with their callers.
    let transfers = SharedDownload.Flights()
    /// The bodies of finished transfers that Core is still decoding.
    let heldBodies = HeldBodies()

    private let engine: Result<CurlEngine, WebImageError>
    /// Where the downloader's metrics go (``WebImageCore/ImageMetrics``); nil when its factory records nothing.
    let metrics: ImageMetricsRecorder?
    /// The logger, when it writes debug lines; nil otherwise, so that a silent one costs a nil check.
    let debugLog: Logger?

    /// What the engine holds now (threads, curl handles, transfer contexts), for tests that prove nothing is left;
    /// nil when the engine could not start.
    package var liveCounters: CurlLiveCounters? {
        try? engine.get().liveCounters
    }
    /// The header fields sent with every request, and their form in a ``DownloadIdentity``, made once per change
    /// (see ``httpHeaders``).
    let headerFields: Locked<DownloaderHeaderFields>

    /// Makes a downloader and starts its curl thread.
    ///
    /// - Parameters:
    ///   - config: Limits, timeouts, headers and checks; copied.
    ///   - coder: Decodes response bodies for image callers; usually `ImageCoderRegistry.shared`.
    ///   - executor: Where response modifiers, decryptors and decoding run.
    ///   - metricsFactory: Where the downloader reports its metrics (``WebImageCore/ImageMetrics``): transfers in
    ///     flight, bytes downloaded, and each transfer's queue and download times. By default the metrics system's
    ///     factory as it is now: nothing is recorded until the application bootstraps one before making the
    ///     downloader.
    ///   - logger: Where the downloader writes a debug line when a transfer starts and when it ends (status,
    ///     bytes, queue and transfer times, or the error code), with the URL's credentials redacted and never a
    ///     header. The end's line is written on the curl thread: give a handler that does not block for long. Nil,
    ///     the default, logs nothing; the logger's level is read once, here.
    public init(
        config: ImageDownloaderConfig = ImageDownloaderConfig(),
        coder: any ImageCoding,
        executor: BoundedExecutor = .decoding,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger? = nil
    ) {
        self.config = config
        metrics = ImageMetricsRecorder.make(metricsFactory)
        debugLog = LogMetadata.writing(logger, at: .debug)
        self.executor = executor
        decodes = SharedDecodes(coder: coder, executor: executor, progressiveInterval: config.progressiveDecodeInterval)
        headerFields = Locked(DownloaderHeaderFields(config.httpHeaders))
        var engineConfiguration = CurlEngine.Configuration()
        engineConfiguration.maxConcurrentTransfers = max(1, config.maxConcurrentDownloads)
        engineConfiguration.executionOrder = config.executionOrder == .fifo ? .fifo : .lifo
        engineConfiguration.maxConnectionsPerHost = max(0, config.maxConnectionsPerHost)
        engineConfiguration.maxTotalConnections = max(0, config.maxTotalConnections)
        engineConfiguration.deliveryWindow = .seconds(max(0, config.completionBatchingInterval.isFinite ? config.completionBatchingInterval : 0))
        do throws(WebImageError) {
            engine = .success(try CurlEngine(configuration: engineConfiguration))
        } catch {
            engine = .failure(error)
        }
    }

    deinit {
        if case .success(let engine) = engine { engine.invalidate() }
    }

    /// Cancels every transfer, completes every waiting caller with `cancelled`, and stops the curl thread.
    /// Requests made afterwards fail with `cancelled`. Idempotent; returns once the thread has stopped.
    public func invalidate() {
        if case .success(let engine) = engine { engine.invalidate() }
    }

    /// Decodes response bodies for image callers, unless a caller's context names another coder.
    public var coder: any ImageCoding { decodes.coder }

    /// The number of transfers in progress or waiting to start.
    public var currentDownloadCount: Int {
        transfers.count
    }

    /// True for `http` and `https` URLs, and `file` URLs when ``ImageDownloaderConfig/allowsFileURLs`` is on.
    public func canRequestImage(for url: URL) -> Bool {
        isAllowedScheme(url)
    }

    /// True for the URLs ``canRequestImage(for:)`` accepts.
    public func canRequestData(for url: URL) -> Bool {
        isAllowedScheme(url)
    }

    private func isAllowedScheme(_ url: URL) -> Bool {
        guard let scheme = url.scheme else { return false }
        if scheme == "https" || scheme == "http" { return true }
        return switch scheme.lowercased() {
        case "http", "https": true
        case "file": config.allowsFileURLs
        default: false
        }
    }

    /// Stops a transfer whose callers have all left.
    func cancelTransfer(_ id: CurlTransferID) {
        if case .success(let engine) = engine { engine.cancel(id) }
    }

    /// Moves a waiting transfer up the engine's queue.
    func raiseTransfer(_ id: CurlTransferID, to priority: CurlRequest.Priority) {
        if case .success(let engine) = engine { engine.setPriority(id, priority) }
    }

    /// Makes the request every caller of `url` would send: the downloader's headers as they are now, the
    /// revalidation headers, then the context's request modifier.
    func makeRequest(url: URL, context: ImageContext) throws(WebImageError) -> ImageRequest {
        guard isAllowedScheme(url) else {
            let scheme = url.scheme.map { "'\($0)'" } ?? "no scheme"
            throw WebImageError(.unsupportedScheme, "the downloader does not load \(scheme) URLs: \(url.absoluteString)")
        }
        var request = ImageRequest(url: url, headers: httpHeaders)
        for header in context.revalidation?.headers ?? [] { request.setValue(header.value, forHeader: header.name) }
        if let modifier = context.requestModifier {
            guard let modified = modifier(request) else {
                throw WebImageError(.invalidDownloadOperation, "the request modifier refused the request for \(url.absoluteString)")
            }
            guard isAllowedScheme(modified.url) else {
                throw WebImageError(.unsupportedScheme, "the request modifier sent \(url.absoluteString) to \(modified.url.absoluteString)")
            }
            request = modified
        }
        return request
    }

    func curlRequest(for request: ImageRequest, options: ImageOptions, priority: CurlRequest.Priority) -> CurlRequest {
        var curl = CurlRequest(url: request.url.absoluteString)
        curl.method = request.method
        curl.headers = request.headers
        curl.connectTimeout = .milliseconds(Int64(config.connectTimeout * 1000))
        curl.totalTimeout = .milliseconds(Int64(config.downloadTimeout * 1000))
        curl.stallTimeout = .milliseconds(Int64(config.stallTimeout * 1000))
        curl.maxResponseSize = Int64(config.maxResponseSize)
        curl.allowsFileScheme = config.allowsFileURLs
        curl.maxRedirects = config.maxRedirects
        curl.verifiesTLS = !options.contains(.allowInvalidSSLCertificates)
        curl.credentials = config.credentials
        curl.usesCookies = options.contains(.handleCookies)
        curl.priority = priority
        if !config.addressPolicy.allowsEverything { curl.addressPolicy = config.addressPolicy }
        return curl
    }

    static func priority(for options: ImageOptions) -> CurlRequest.Priority {
        if options.contains(.highPriority) { return .high }
        if options.contains(.lowPriority) { return .low }
        return .normal
    }

    var curlEngine: Result<CurlEngine, WebImageError> { engine }
}
