#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads `data:` URLs (RFC 2397): the bytes come from the URL itself, base64 or percent-encoded, and are read and
/// decoded on an executor, never on the caller's thread.
///
/// ```swift
/// let loader = DataURLImageLoader(coder: ImageCoderRegistry.shared)
/// loader.requestImage(url: URL(string: "data:image/png;base64,iVBORw0...")!, options: [], context: ImageContext(),
///                     progress: nil) { result in ... }
/// ```
///
/// As an ``ImageDataLoading`` it hands over the bytes; as an ``ImageLoading`` it decodes them in Core, one decode
/// for the callers of the same URL and decode options while it runs (see ``DecodingImageLoader``).
///
/// Thread-safe. Cancellation is checked before the read, the decode and the completion; a decode in progress runs
/// to its end and its result is dropped.
public final class DataURLImageLoader: ImageLoading, ImageDataLoading {
    /// Decodes the bytes unless the context names another coder.
    public var coder: any ImageCoding { decodes.coder }
    /// Where reading and decoding run.
    public var executor: BoundedExecutor { decodes.executor }
    /// The most bytes a URL may carry once decoded; larger ones fail with `responseTooLarge`.
    public let maxDataSize: Int
    private let decodes: SharedDecodes

    public init(coder: any ImageCoding, executor: BoundedExecutor = .decoding, maxDataSize: Int = 64 << 20) {
        decodes = SharedDecodes(coder: coder, executor: executor)
        self.maxDataSize = maxDataSize
    }

    public func canRequestImage(for url: URL) -> Bool {
        canRequestData(for: url)
    }

    public func canRequestData(for url: URL) -> Bool {
        url.scheme?.lowercased() == "data"
    }

    /// Decodes the URL's bytes. Progress is reported once, when the bytes are known; a malformed URL fails with
    /// `invalidURL`, bytes that do not decode with `badImageData` or the coder's limits.
    @discardableResult
    public func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        decodes.requestImage(from: self, url: url, options: options, context: context, progress: progress, completion: completion)
    }

    /// The URL's bytes, after the context's decryptor. Progress is reported once, when the bytes are known; a
    /// malformed URL fails with `invalidURL`, one over ``maxDataSize`` with `responseTooLarge`.
    @discardableResult
    public func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken {
        let limit = maxDataSize
        let string = url.absoluteString
        return LocalImageLoad.start(
            what: "a data URL", context: context, executor: executor, progress: progress, completion: completion
        ) { () throws(WebImageError) in
            try DataURL.payload(of: string, limit: limit)
        }
    }
}

/// The parts of a `data:` URL.
enum DataURL {
    /// The bytes a `data:` URL carries.
    ///
    /// - Throws: `invalidURL` when the string is not a data URL or its payload does not decode;
    ///   `responseTooLarge` when the bytes would exceed `limit`.
    static func payload(of string: String, limit: Int) throws(WebImageError) -> Data {
        guard string.utf8.count >= 5, string.prefix(5).lowercased() == "data:",
              let comma = string.firstIndex(of: ",")
        else {
            throw WebImageError(.invalidURL, "not a data URL: \(preview(string))")
        }
        let header = string[string.index(string.startIndex, offsetBy: 5)..<comma]
        let body = string[string.index(after: comma)...]
        let isBase64 = header.split(separator: ";").contains { $0.lowercased() == "base64" }
        // Base64 carries 3 bytes in 4 characters; percent-encoding at least 1 in 3.
        let bound = isBase64 ? body.utf8.count / 4 * 3 : body.utf8.count
        if bound > limit, !isBase64 || (body.utf8.count - 3) / 4 * 3 > limit {
            throw WebImageError(.responseTooLarge, "a data URL of \(body.utf8.count) characters is over the \(limit)-byte limit")
        }
        guard let bytes = percentDecoded(body.utf8) else {
            throw WebImageError(.invalidURL, "the payload of a data URL has a bad percent escape: \(preview(string))")
        }
        guard isBase64 else { return bytes }
        guard let data = Data(base64Encoded: bytes, options: .ignoreUnknownCharacters) else {
            throw WebImageError(.invalidURL, "the base64 payload of a data URL does not decode: \(preview(string))")
        }
        guard data.count <= limit else {
            throw WebImageError(.responseTooLarge, "a data URL of \(data.count) bytes is over the \(limit)-byte limit")
        }
        return data
    }

    /// The bytes of `text` with every `%XX` escape replaced by the byte it names; nil for a broken escape.
    static func percentDecoded(_ text: Substring.UTF8View) -> Data? {
        var bytes = Data()
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The start of a long URL, for messages.
    static func preview(_ string: String) -> String {
        string.count > 64 ? String(string.prefix(64)) + "..." : string
    }
}
