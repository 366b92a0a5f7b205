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

    /// The media type of the body, lowercased and without parameters (`image/png`): the `Content-Type` field's
    /// type and subtype, as RFC 9110 spells them. Nil when the response has no `Content-Type`, or one that names no
    /// media type (see ``hasMalformedContentType``).
    public var mediaType: String? {
        guard case .valid(let type) = contentType else { return nil }
        return type
    }

    /// Whether the response has a `Content-Type` that names no media type: an empty value, no type or no subtype
    /// before the parameters (`;`, `; image/png`, `image`, `image/`), characters a type cannot have, or several
    /// `Content-Type` fields with different types. Such a response has no ``mediaType``, and a downloader that
    /// accepts only some media types refuses it, as it would any type it does not accept.
    public var hasMalformedContentType: Bool {
        if case .malformed = contentType { return true }
        return false
    }

    /// The body length the response announced in `Content-Length`, or nil when it announced none or none that
    /// can be trusted: a value that is not a decimal number (a sign, a fraction, a number beyond `Int64`, anything
    /// after it), fields or list items that disagree, or a `Transfer-Encoding`, whose framing overrides the length
    /// (RFC 9112). A field that repeats one number (`42, 42`), as some proxies send, announces that number.
    public var expectedContentLength: Int64? {
        var announced: Int64?
        for header in headers {
            if header.hasName("Transfer-Encoding") { return nil }
            guard header.hasName("Content-Length") else { continue }
            for item in header.value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let length = Self.decimalLength(item), announced == nil || announced == length else { return nil }
                announced = length
            }
        }
        return announced
    }

    /// What the `Content-Type` fields say.
    private enum ContentTypeField {
        case absent
        case valid(String)
        case malformed
    }

    private var contentType: ContentTypeField {
        var field = ContentTypeField.absent
        for header in headers where header.hasName("Content-Type") {
            guard let type = Self.parsedMediaType(in: header.value) else { return .malformed }
            if case .valid(let earlier) = field, earlier != type { return .malformed }
            field = .valid(type)
        }
        return field
    }
}

/// Rewrites a response before it is checked (status, headers), or refuses it with nil, which fails the load
/// with `invalidDownloadResponse`. Runs off the transfer's thread, before the body is decoded.
public typealias ImageResponseModifier = @Sendable (ImageResponse) -> ImageResponse?

/// Turns a response body into image data before decoding (decrypting it, say); nil fails the load with
/// `badImageData`. Runs on the decoding executor.
public typealias ImageDataDecryptor = @Sendable (Data, ImageResponse?) -> Data?
