#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A source of images by URL: the network downloader, a `data:` URL decoder, a file reader, or a composite of
/// several (``ImageLoaders``), as SDWebImage's `SDImageLoader`.
///
/// Implementations are thread-safe: every method may be called from any thread.
public protocol ImageLoading: Sendable {
    /// Whether this loader handles `url` (its scheme, usually). Cheap; called on every load.
    func canRequestImage(for url: URL) -> Bool

    /// Starts loading `url`.
    ///
    /// - Parameters:
    ///   - url: What to load; ``canRequestImage(for:)`` returned true for it.
    ///   - options: The load's flags (priority, progressive loading, cookies, TLS, ...).
    ///   - context: Per-load settings: the coder and decode options, request and response modifiers, the
    ///     decryptor, the callback queue.
    ///   - progress: Called as bytes arrive, at most as often as the loader's throttle allows, and once more at
    ///     the end; with a partial image when the load is progressive. Never called after `completion`.
    ///   - completion: Called exactly once, on the context's callback queue: with the image and its data, or
    ///     with the error (`cancelled` when the token was cancelled first).
    /// - Returns: A token that cancels this caller's part of the load. Cancelling completes the caller at once
    ///   with `cancelled`; the work underneath stops when no caller wants it any more.
    @discardableResult
    func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken

    /// Whether a failure of `url` with `error` should put the URL on the manager's failed list, so that it is
    /// not tried again for a while: true for errors that retrying cannot fix (a bad URL, undecodable data,
    /// non-transient transport failures), false for cancellations, timeouts, connection and DNS failures, lost
    /// connections and HTTP status errors.
    func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool
}

/// Called with a load's progress; see ``ImageLoading/requestImage(url:options:context:progress:completion:)``.
public typealias ImageLoadProgressHandler = @Sendable (ImageLoadProgress) -> Void

/// Called once with a load's outcome.
public typealias DownloadedImageHandler = @Sendable (Result<DownloadedImage, WebImageError>) -> Void

/// The former name of ``DownloadedImageHandler``, easily confused with the manager's ``ImageLoadResultHandler``.
@available(*, deprecated, renamed: "DownloadedImageHandler")
public typealias ImageLoadCompletion = DownloadedImageHandler

extension ImageLoading {
    /// SDWebImage's classification of failures that retrying cannot fix.
    public func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool {
        ImageLoaderFailure.isPermanent(error)
    }
}

/// One caller's part of a load in progress.
public protocol ImageLoadToken: AnyObject, Sendable {
    /// Cancels this caller's part: its completion runs at once with `cancelled` unless it has already run, and
    /// nothing is delivered to it after that. Thread-safe, returns at once; calling it again does nothing.
    func cancel()

    /// Whether ``cancel()`` was called before the load finished.
    var isCancelled: Bool { get }

    /// Whether this caller's completion has run or been claimed by a cancellation.
    var isFinished: Bool { get }
}

/// A token over a ``CompletionLatch``, for loaders that finish a single caller.
package final class LatchLoadToken<Success: Sendable>: ImageLoadToken {
    let latch: CompletionLatch<Success>

    package init(latch: CompletionLatch<Success>) {
        self.latch = latch
    }

    package func cancel() {
        latch.cancel()
    }

    package var isCancelled: Bool { latch.isCancelled }
    package var isFinished: Bool { latch.isDone }
}

/// How far a load has come.
public struct ImageLoadProgress: Sendable {
    /// Bytes received so far.
    public var receivedBytes: Int64
    /// The bytes the response announced, or -1 when it did not say.
    public var expectedBytes: Int64
    /// A partial image, for progressive loads.
    public var partialImage: Image?
    /// Every byte received so far, from a data loader (``ImageDataLoading``) to a caller that asked for a
    /// progressive load (`progressiveLoad`), so that partial images can be decoded from them; nil otherwise.
    /// Image loaders hand on partial images instead, and never these bytes.
    public var receivedData: Data?

    public init(receivedBytes: Int64, expectedBytes: Int64, partialImage: Image? = nil, receivedData: Data? = nil) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        self.partialImage = partialImage
        self.receivedData = receivedData
    }

    /// The fraction received, 0...1, or nil when the length is unknown.
    public var fractionCompleted: Double? {
        guard expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}

/// Which load failures are permanent, so that a URL failing with them is not tried again for a while.
public enum ImageLoaderFailure {
    /// True for a bad URL, undecodable or empty data, an unsupported format or scheme, too many redirects, a
    /// response too large, TLS failures and refused requests or responses; false for cancellations, timeouts,
    /// connection and DNS failures, lost connections, replies that are not valid HTTP (`badServerResponse`), HTTP
    /// status errors and everything else.
    public static func isPermanent(_ error: WebImageError) -> Bool {
        switch error.code {
        case .invalidURL, .badImageData, .unsupportedFormat, .unsupportedScheme, .tooManyRedirects,
            .responseTooLarge, .tlsFailure, .invalidDownloadOperation, .invalidDownloadResponse,
            .invalidDownloadContentType, .imageTooLarge:
            return true
        default:
            return false
        }
    }
}
