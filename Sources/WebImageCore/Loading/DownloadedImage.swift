#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an image loader delivers: the decoded image, the bytes it came from, and the response and the transfer's
/// metrics when there were some.
public struct DownloadedImage: Sendable {
    /// The decoded image.
    public var image: Image
    /// The encoded bytes (after the decryptor, when there is one).
    public var data: Data
    /// The HTTP response, for network loads.
    public var response: ImageResponse?
    /// How the transfer went, for network loads.
    public var metrics: ImageDownloadMetrics?
    /// How long decoding the bytes took, when the loader decoded them itself; nil when it does not say.
    public var decodeDuration: Duration?

    public init(
        image: Image, data: Data, response: ImageResponse? = nil, metrics: ImageDownloadMetrics? = nil,
        decodeDuration: Duration? = nil
    ) {
        self.image = image
        self.data = data
        self.response = response
        self.metrics = metrics
        self.decodeDuration = decodeDuration
    }
}

/// The former name of ``DownloadedImage``, easily confused with the manager's ``ImageLoadResult``.
@available(*, deprecated, renamed: "DownloadedImage")
public typealias ImageLoaderResult = DownloadedImage

/// What a data loader delivers (see ``ImageDataLoading``; the downloader's `downloadData`): the bytes, after the
/// decryptor when there is one, with the final response and the transfer's metrics when there were some.
public struct DownloadedImageData: Sendable {
    /// The body as received (decompressed from gzip, deflate or brotli), then decrypted.
    public var data: Data
    /// The final response, after redirects and the response modifier; nil for bytes that came without one
    /// (`data:` and `file:` URLs).
    public var response: ImageResponse?
    /// How the transfer went, for network loads.
    public var metrics: ImageDownloadMetrics?

    /// Bytes and the response they came with.
    public init(data: Data, response: ImageResponse?, metrics: ImageDownloadMetrics? = nil) {
        self.data = data
        self.response = response
        self.metrics = metrics
    }

    /// These bytes after `decryptor`, the one place a context's decryptor runs: the data loaders run it for their
    /// callers, and Core's decoding runs it before it decodes.
    ///
    /// - Parameter what: Names the bytes in messages (a URL, "a data URL", a path).
    /// - Throws: `badImageData` when the decryptor refuses the bytes.
    package func decrypted(by decryptor: ImageDataDecryptor?, what: String) throws(WebImageError) -> DownloadedImageData {
        guard let decryptor else { return self }
        guard let decrypted = decryptor(data, response) else {
            throw WebImageError(.badImageData, "the decryptor refused the data of \(what)")
        }
        var result = self
        result.data = decrypted
        return result
    }
}
