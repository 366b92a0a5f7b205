#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension ImageDownloader: ImageDataLoading {
    /// ``downloadData(url:options:context:progress:completion:)`` as an ``ImageDataLoading`` loader.
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
}
