#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
