#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A loader that can also hand over a URL's bytes without decoding them, for work that only moves data (a
/// prefetch that warms the disk cache, say).
///
/// Thread-safe, as ``ImageLoading``.
public protocol ImageDataLoading: ImageLoading {
    /// Whether ``requestData(url:options:context:progress:completion:)`` can load `url`.
    func canRequestData(for url: URL) -> Bool

    /// Loads the bytes of `url` without decoding them.
    ///
    /// - Parameters:
    ///   - progress: As for ``ImageLoading/requestImage(url:options:context:progress:completion:)``.
    ///   - completion: Called exactly once, on the context's callback queue: with the body and the response, or
    ///     with the error (`cancelled` when the token was cancelled first).
    /// - Returns: A token that cancels this caller's part of the load.
    @discardableResult
    func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken
}

extension ImageDataLoading {
    /// What ``ImageLoading/canRequestImage(for:)`` says: a loader that loads a URL's image can load its bytes.
    public func canRequestData(for url: URL) -> Bool {
        canRequestImage(for: url)
    }
}
