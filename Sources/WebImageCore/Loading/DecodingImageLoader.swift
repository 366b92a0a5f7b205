#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ``ImageLoading`` over any ``ImageDataLoading``: it asks the data loader for the bytes and decodes them in
/// Core, as the built-in loaders do. One request and one decode serve every caller of the same load while it runs;
/// the context's decryptor runs before the decode; with `progressiveLoad`, partial images are decoded from the
/// bytes as they arrive (when the data loader hands them on, see ``ImageLoadProgress/receivedData``).
///
/// ```swift
/// let loader = DecodingImageLoader(MyBucketLoader(), coder: ImageCoderRegistry.shared)
/// let manager = ImageManager(cache: cache, loader: loader)
/// ```
///
/// Callers share a load when they ask for the same URL with the same loading options and priority, the same decode
/// options and the same coder; a caller whose context brings a request or response modifier, a decryptor, a coder
/// value, validators or extension values loads alone.
///
/// Thread-safe. Each caller completes exactly once on its context's callback queue; cancelling a caller's token
/// completes it at once with `cancelled`, and the request and the decode stop when the last caller has cancelled.
public final class DecodingImageLoader: ImageLoading, ImageDataLoading {
    /// Where the bytes come from.
    public let dataLoader: any ImageDataLoading
    private let decodes: SharedDecodes

    /// - Parameters:
    ///   - dataLoader: Delivers the bytes.
    ///   - coder: Decodes them, unless a context names another coder.
    ///   - executor: Where decoding runs.
    ///   - progressiveDecodeInterval: The least time between the starts of two partial decodes, in seconds.
    public init(
        _ dataLoader: any ImageDataLoading,
        coder: any ImageCoding,
        executor: BoundedExecutor = .decoding,
        progressiveDecodeInterval: Double = 0.1
    ) {
        self.dataLoader = dataLoader
        decodes = SharedDecodes(coder: coder, executor: executor, progressiveInterval: progressiveDecodeInterval)
    }

    /// Decodes the bytes unless a context names another coder.
    public var coder: any ImageCoding { decodes.coder }

    public func canRequestImage(for url: URL) -> Bool {
        dataLoader.canRequestData(for: url)
    }

    /// Loads the bytes of `url` and decodes them. Failures are the data loader's, `badImageData` for bytes that
    /// are empty, refused by the decryptor or not an image, and the coder's limits (`imageTooLarge`).
    @discardableResult
    public func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        decodes.requestImage(from: dataLoader, url: url, options: options, context: context, progress: progress, completion: completion)
    }

    public func canRequestData(for url: URL) -> Bool {
        dataLoader.canRequestData(for: url)
    }

    /// The data loader's bytes, undecoded.
    @discardableResult
    public func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken {
        dataLoader.requestData(url: url, options: options, context: context, progress: progress, completion: completion)
    }
}
