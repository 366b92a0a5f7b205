#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageManager {
    /// The options and context of one load: the manager's settings merged into the context, then the options
    /// processor's rewrite, as SDWebImage prepares each load.
    func prepared(_ url: URL?, options: ImageOptions, context: ImageContext, settings: Settings) -> (ImageOptions, ImageContext) {
        let context = resolved(context, with: settings)
        guard let processor = settings.optionsProcessor, let processed = processor(url, options, context) else {
            return (options, context)
        }
        return processed
    }

    /// The `blackListed` error for `url` when it is on the failed list and `options` do not ask to retry it.
    func blockedError(for url: URL, options: ImageOptions) -> WebImageError? {
        guard !options.contains(.retryFailed), let failed = failedURLList.entry(for: url) else { return nil }
        let message = "\(url.absoluteString) failed recently (\(failed.error.code.name): \(failed.error.message)); "
            + "it is not tried again until it expires, or with retryFailed"
        return WebImageError(.blackListed, message)
    }

    /// Puts `url` on the failed list when `error` is one retrying cannot fix: the manager's own rule when set,
    /// else the loader's classification. Cancellations and refusals during shutdown never count.
    func recordFailure(_ url: URL, error: WebImageError, loader: any ImageLoading, shouldBlock: (@Sendable (URL, WebImageError) -> Bool)?) {
        guard error.code != .cancelled, error.code != .shuttingDown, shouldBlock?(url, error) ?? loader.shouldBlockFailedURL(url, error: error) else { return }
        failedURLList.add(url, error: error)
    }
}
