#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads `file:` URLs from the local file system, for setups that allow it (the downloader refuses `file:`
/// unless told otherwise, as a server must not read its own files for a client).
///
/// The file is read and decoded on an executor, never on the caller's thread. Files larger than
/// ``maxFileSize`` fail with `responseTooLarge` before they are read. As an ``ImageDataLoading`` it hands over the
/// bytes; as an ``ImageLoading`` it decodes them in Core, one decode for the callers of the same file and decode
/// options while it runs (see ``DecodingImageLoader``).
///
/// Thread-safe. Cancellation is checked before the read, before the decode and before the completion.
public final class FileImageLoader: ImageLoading, ImageDataLoading {
    /// Decodes the bytes unless the context names another coder.
    public var coder: any ImageCoding { decodes.coder }
    /// Where reading and decoding run.
    public var executor: BoundedExecutor { decodes.executor }
    /// The largest file read, in bytes.
    public let maxFileSize: Int
    private let decodes: SharedDecodes

    public init(coder: any ImageCoding, executor: BoundedExecutor = .decoding, maxFileSize: Int = 64 << 20) {
        decodes = SharedDecodes(coder: coder, executor: executor)
        self.maxFileSize = maxFileSize
    }

    public func canRequestImage(for url: URL) -> Bool {
        canRequestData(for: url)
    }

    public func canRequestData(for url: URL) -> Bool {
        url.isFileURL
    }

    /// Reads and decodes the file. A missing or unreadable file fails with `diskIO`, a directory or a URL
    /// that is not a `file:` URL with `invalidURL`.
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

    /// Reads the file, then runs the context's decryptor. Failures are those of
    /// ``requestImage(url:options:context:progress:completion:)`` but for the decode.
    @discardableResult
    public func requestData(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken {
        let limit = maxFileSize
        return LocalImageLoad.start(
            what: url.path, context: context, executor: executor, progress: progress, completion: completion
        ) { () throws(WebImageError) in
            try Self.read(url, limit: limit)
        }
    }

    /// The bytes of the file at `url`, checked against `limit` before reading.
    static func read(_ url: URL, limit: Int) throws(WebImageError) -> Data {
        guard url.isFileURL else { throw WebImageError(.invalidURL, "not a file URL: \(url.absoluteString)") }
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw WebImageError(.diskIO, "cannot read \(path): \(error.localizedDescription)")
        }
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw WebImageError(.invalidURL, "\(path) is not a regular file")
        }
        let size = (attributes[.size] as? Int) ?? (attributes[.size] as? UInt64).map { Int(clamping: $0) }
            ?? (attributes[.size] as? Int64).map { Int(clamping: $0) }
        if let size, size > limit {
            throw WebImageError(.responseTooLarge, "\(path) has \(size) bytes, over the \(limit)-byte limit")
        }
        do {
            let data = try Data(contentsOf: url)
            guard data.count <= limit else {
                throw WebImageError(.responseTooLarge, "\(path) has \(data.count) bytes, over the \(limit)-byte limit")
            }
            return data
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError(.diskIO, "cannot read \(path): \(error.localizedDescription)")
        }
    }
}
