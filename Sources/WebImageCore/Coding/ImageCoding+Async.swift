#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The asynchronous forms of decoding and encoding, for every coder and the registry: the synchronous work, run on
// a bounded executor, so that an async caller never holds a thread of Swift's cooperative pool (one per core) for
// the length of a decode.
extension ImageCoding {
    /// Decodes `data` on `executor`, as ``decode(_:options:)`` does, and returns the image.
    ///
    /// ```swift
    /// let image = try await ImageCoderRegistry.shared.decode(data, options: options, on: .decoding)
    /// ```
    ///
    /// The decode runs on one of `executor`'s threads, never on the caller's; the caller suspends meanwhile.
    ///
    /// Cancellation: a task already cancelled throws `cancelled` and decodes nothing; cancelling while the decode
    /// waits for a slot throws `cancelled` at once and the decode never runs; a decode that has started runs to its
    /// end, its image dropped, and the call throws `cancelled` at once.
    ///
    /// - Parameters:
    ///   - options: Thumbnail size, first frame only, limits; see ``ImageDecodeOptions``.
    ///   - executor: Where the decode runs; ``BoundedExecutor/decoding`` is the library's.
    /// - Throws: What ``decode(_:options:)`` throws, or `cancelled`.
    public func decode(
        _ data: Data,
        options: ImageDecodeOptions = ImageDecodeOptions(),
        on executor: BoundedExecutor
    ) async throws(WebImageError) -> Image {
        try await executor.run(cancellationMessage: "decoding \(data.count) bytes was cancelled") { () throws(WebImageError) in
            try decode(data, options: options)
        }
    }

    /// Encodes `image` as `format` on `executor`, as ``encode(_:as:options:)`` does, and returns the data.
    ///
    /// ```swift
    /// let data = try await coder.encode(image, as: .webp, on: .decoding)
    /// ```
    ///
    /// The encode runs on one of `executor`'s threads, never on the caller's; the caller suspends meanwhile.
    ///
    /// Cancellation: as for ``decode(_:options:on:)``: `cancelled` before the encode starts means it never runs;
    /// an encode that has started runs to its end, its data dropped.
    ///
    /// - Throws: What ``encode(_:as:options:)`` throws, or `cancelled`.
    public func encode(
        _ image: Image,
        as format: ImageFormat,
        options: ImageEncodeOptions = ImageEncodeOptions(),
        on executor: BoundedExecutor
    ) async throws(WebImageError) -> Data {
        try await executor.run(cancellationMessage: "encoding an image as \(format) was cancelled") { () throws(WebImageError) in
            try encode(image, as: format, options: options)
        }
    }
}
