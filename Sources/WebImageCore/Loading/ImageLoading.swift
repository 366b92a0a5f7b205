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
