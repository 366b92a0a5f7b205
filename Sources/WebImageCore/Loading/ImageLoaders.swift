#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Several loaders as one, as SDWebImage's `SDImageLoadersManager`: each request goes to the first loader that
/// can handle its URL, so that `data:` URLs (and `file:` URLs, when allowed) are served without the network.
///
/// ```swift
/// let loaders = ImageLoaders([DataURLImageLoader(coder: registry), downloader])
/// loaders.requestImage(url: url, options: [], context: ImageContext(), progress: nil) { result in ... }
/// ```
///
/// Thread-safe: the list is read under a lock and no loader runs while it is held.
public final class ImageLoaders: ImageLoading, ImageDataLoading {
    private let list: Locked<[any ImageLoading]>

    /// Loaders in the order they are asked: the first that can request a URL gets it.
    public init(_ loaders: [any ImageLoading] = []) {
        list = Locked(loaders)
    }

    /// The loaders, in the order they are asked.
    public var loaders: [any ImageLoading] {
        list.withLock { $0 }
    }

    /// Adds `loader` in front of the others, as SDWebImage's manager asks the last added first.
    public func addLoader(_ loader: any ImageLoading) {
        list.withLock { $0.insert(loader, at: 0) }
    }

    /// Removes every loader that is the same object as `loader` (for class loaders).
    public func removeLoader(_ loader: any ImageLoading & AnyObject) {
        list.withLock { $0.removeAll { ($0 as AnyObject) === loader } }
    }

    private func loader(for url: URL) -> (any ImageLoading)? {
        let loaders = list.withLock { $0 }
        return loaders.first { $0.canRequestImage(for: url) }
    }

    public func canRequestImage(for url: URL) -> Bool {
        loader(for: url) != nil
    }

    /// Hands the request to the first loader that can request `url`. With none, completes once with
    /// `unsupportedScheme` on the context's callback queue.
    @discardableResult
    public func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        if let loader = loader(for: url) {
            return loader.requestImage(url: url, options: options, context: context, progress: progress, completion: completion)
        }
        let latch = CompletionLatch<DownloadedImage>(callbackQueue: context.callbackQueue ?? .default, handler: completion)
        let scheme = url.scheme.map { "'\($0)'" } ?? "no scheme"
        latch.finish(.failure(WebImageError(.unsupportedScheme, "no image loader handles \(scheme): \(url.absoluteString)")), duringCall: true)
        return LatchLoadToken(latch: latch)
    }

    /// Whether the first loader that can request `url` can also load its bytes alone.
    public func canRequestData(for url: URL) -> Bool {
        (loader(for: url) as? any ImageDataLoading)?.canRequestData(for: url) ?? false
    }

    /// Hands the request to the first loader that can request `url`, when it can also load bare data. Otherwise
    /// completes once with `unsupportedScheme` on the context's callback queue.
    @discardableResult
    public func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken {
        if let loader = loader(for: url) as? any ImageDataLoading {
            return loader.requestData(url: url, options: options, context: context, progress: progress, completion: completion)
        }
        let latch = CompletionLatch<DownloadedImageData>(callbackQueue: context.callbackQueue ?? .default, handler: completion)
        latch.finish(.failure(WebImageError(.unsupportedScheme, "no data loader handles \(url.absoluteString)")), duringCall: true)
        return LatchLoadToken(latch: latch)
    }

    /// Asks the loader that handles `url`; SDWebImage's classification when none does.
    public func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool {
        loader(for: url)?.shouldBlockFailedURL(url, error: error) ?? ImageLoaderFailure.isPermanent(error)
    }
}
