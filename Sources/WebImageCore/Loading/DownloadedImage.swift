#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a loader delivers: the decoded image, the bytes it came from, and the response when there was one.
public struct DownloadedImage: Sendable {
    /// The decoded image.
    public var image: Image
    /// The encoded bytes (after the decryptor, when there is one).
    public var data: Data
    /// The HTTP response, for network loads.
    public var response: ImageResponse?

    public init(image: Image, data: Data, response: ImageResponse? = nil) {
        self.image = image
        self.data = data
        self.response = response
    }
}

/// The former name of ``DownloadedImage``, easily confused with the manager's ``ImageLoadResult``.
@available(*, deprecated, renamed: "DownloadedImage")
public typealias ImageLoaderResult = DownloadedImage

/// The body of a download that was not decoded (see ``ImageDataLoading``; the downloader's `downloadData`): the
/// bytes, after the decryptor when there is one, and the final response.
public struct DownloadedImageData: Sendable {
    /// The body as received (decompressed from gzip, deflate or brotli), then decrypted.
    public var data: Data
    /// The final response, after redirects and the response modifier.
    public var response: ImageResponse

    /// A body and the response it came with.
    public init(data: Data, response: ImageResponse) {
        self.data = data
        self.response = response
    }
}
