#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The response a loader received, as a response modifier sees it.
public struct ImageResponse: Sendable, Hashable {
    /// The URL the response came from, after redirects.
    public var url: URL
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields in order.
    public var headers: [HTTPHeader]

    public init(url: URL, statusCode: Int, headers: [HTTPHeader] = []) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
    }

    /// The value of the first field named `name`, compared without regard to case.
    public func value(forHeader name: String) -> String? {
        headers.value(named: name)
    }

    /// The media type of the body, lowercased and without parameters (`image/png`), or nil.
    public var mediaType: String? {
        guard let type = value(forHeader: "Content-Type") else { return nil }
        let bare = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? type
        let trimmed = bare.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The `Content-Length` the response announced, or nil.
    public var expectedContentLength: Int64? {
        value(forHeader: "Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// Rewrites a response before it is checked (status, headers), or refuses it with nil, which fails the load
/// with `invalidDownloadResponse`. Runs off the transfer's thread, before the body is decoded.
public typealias ImageResponseModifier = @Sendable (ImageResponse) -> ImageResponse?

/// Turns a response body into image data before decoding (decrypting it, say); nil fails the load with
/// `badImageData`. Runs on the decoding executor.
public typealias ImageDataDecryptor = @Sendable (Data, ImageResponse?) -> Data?
