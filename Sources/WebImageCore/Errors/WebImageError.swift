/// The one error type of the library: a stable ``Code`` and a message that says what happened, to what.
///
/// ```swift
/// do {
///     let image = try registry.decode(data)
/// } catch let error as WebImageError where error.code == .badImageData {
///     print(error.message)          // "PNG: IHDR chunk is truncated"
/// }
/// ```
public struct WebImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases.
    public var code: Code
    /// A human-readable account naming the format, URL or key concerned. A URL's user information is masked
    /// (`http://user:***@host/`): a message may be logged or shown, and must not carry a password.
    public var message: String
    /// The HTTP status code, for `invalidDownloadStatusCode`.
    public var statusCode: Int?
    /// The code a coder gave, when a load reports the coder's failure under another: bytes that no coder
    /// recognises are `unsupportedFormat` to a coder and `badImageData` to a load, as SDWebImage reports any
    /// download that does not decode, so that a load's error keeps `unsupportedFormat` here. Nil otherwise.
    public var coderCode: Code?

    /// Creates an error. The user information of any URL in `message` is masked.
    public init(_ code: Code, _ message: String, statusCode: Int? = nil) {
        self.code = code
        self.message = CredentialRedaction.redacting(message)
        self.statusCode = statusCode
    }

    /// Undecodable data: `"<FORMAT>: <what was wrong>"`.
    public static func badImageData(_ format: ImageFormat, _ reason: String) -> WebImageError {
        WebImageError(.badImageData, "\(format.name.uppercased()): \(reason)")
    }

    /// An image whose pixel count is over the limit.
    public static func imageTooLarge(_ format: ImageFormat, size: PixelSize, frames: Int = 1, limit: Int) -> WebImageError {
        let what = frames > 1 ? "\(size) pixels x \(frames) frames" : "\(size) pixels"
        return WebImageError(
            .imageTooLarge,
            "\(format.name.uppercased()): \(what) is over the limit of \(limit) pixels"
        )
    }

    /// A format no coder in use can decode or encode.
    public static func unsupportedFormat(_ format: ImageFormat, _ action: String = "decode") -> WebImageError {
        if format == .undefined {
            return WebImageError(.unsupportedFormat, "the data is not in an image format this library can \(action)")
        }
        return WebImageError(.unsupportedFormat, "no coder can \(action) \(format.name.uppercased())")
    }

    public var description: String { "\(code.name) (\(code.rawValue)): \(message)" }
}
