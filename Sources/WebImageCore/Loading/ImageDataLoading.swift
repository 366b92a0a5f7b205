#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A source of image bytes by URL, as Nuke's `DataLoading`: the network downloader, a `data:` URL reader, a file
/// reader. Data loaders move bytes and decode nothing; Core decodes what they deliver (``DecodingImageLoader``;
/// the built-in loaders are also ``ImageLoading``s that decode this way), and work that only moves bytes (a
/// prefetch that warms the disk cache, a server that forwards them) uses them as they are.
///
/// Implementations are thread-safe: every method may be called from any thread.
public protocol ImageDataLoading: Sendable {
    /// Whether ``requestData(url:options:context:progress:completion:)`` can load `url` (its scheme, usually).
    /// Cheap; called on every load.
    func canRequestData(for url: URL) -> Bool

    /// Loads the bytes of `url`.
    ///
    /// - Parameters:
    ///   - url: What to load; ``canRequestData(for:)`` returned true for it.
    ///   - options: The load's flags (priority, progressive loading, cookies, TLS, ...).
    ///   - context: Per-load settings: request and response modifiers, the decryptor, the callback queue.
    ///   - progress: Called as bytes arrive, at most as often as the loader's throttle allows, and once more at
    ///     the end; never after `completion`. With `progressiveLoad` in `options`, reports carry every byte so far
    ///     (``ImageLoadProgress/receivedData``) when the loader can give them, so that Core can decode partial
    ///     images from them.
    ///   - completion: Called exactly once, on the context's callback queue: with the bytes (after the context's
    ///     decryptor) and the response, or with the error (`cancelled` when the token was cancelled first).
    /// - Returns: A token that cancels this caller's part of the load. Cancelling completes the caller at once
    ///   with `cancelled`; the work underneath stops when no caller wants it any more. Core cancels the token of a
    ///   load it decodes once the decode is over, so a loader may keep something for the load until then (the
    ///   downloader serves a finished transfer's body to callers of the same request meanwhile); cancelling after
    ///   the completion must change nothing else.
    @discardableResult
    func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken
}
