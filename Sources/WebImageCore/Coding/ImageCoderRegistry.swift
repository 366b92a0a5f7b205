#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ordered list of coders, asked from the one added last to the one added first, as SDWebImage's
/// `SDImageCodersManager`. The registry is itself a coder, so it can stand wherever one coder can.
///
/// Thread-safe: coders may be added and removed while other threads decode. Each call works on a snapshot of the
/// list taken under a lock; no coder runs while the lock is held.
///
/// ```swift
/// let registry = ImageCoderRegistry.shared            // PNG, JPEG, WebP and GIF (WebImageCodecs)
/// registry.add(MyTIFFCoder())                         // asked first from now on
/// let image = try registry.decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
/// ```
public final class ImageCoderRegistry: ImageCoding, Sendable {
    private let list: Locked<[any ImageCoding]>

    /// Creates a registry; `coders` are asked from the last to the first.
    public init(coders: [any ImageCoding] = []) {
        list = Locked(coders)
    }

    /// The coders, lowest priority first. Setting replaces the whole list.
    public var coders: [any ImageCoding] {
        get { list.withLock { $0 } }
        set { list.withLock { $0 = newValue } }
    }

    /// Adds a coder with the highest priority.
    public func add(_ coder: any ImageCoding) {
        list.withLock { $0.append(coder) }
    }

    /// Removes every coder of type `type`.
    public func remove<C: ImageCoding>(_ type: C.Type) {
        list.withLock { $0.removeAll { $0 is C } }
    }

    /// The coder that would decode `data`: the highest-priority one whose `canDecode` says yes.
    public func decoder(for data: Data) -> (any ImageCoding)? {
        coders.reversed().first { $0.canDecode(data) }
    }

    /// The coder that would encode to `format`.
    public func encoder(for format: ImageFormat) -> (any ImageCoding)? {
        coders.reversed().first { $0.canEncode(to: format) }
    }

    // MARK: ImageCoding

    public func canDecode(_ data: Data) -> Bool {
        decoder(for: data) != nil
    }

    /// Decodes with the first coder that can.
    ///
    /// - Throws: `badImageData` for empty data, `unsupportedFormat` when no coder recognises the data, and
    ///   whatever the chosen coder throws.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try coder(decoding: data).decode(data, options: options)
    }

    /// Reads the header with the first coder that can decode `data`.
    public func info(for data: Data) throws(WebImageError) -> ImageInfo {
        try coder(decoding: data).info(for: data)
    }

    /// Reads the header from the first bytes of data of `totalByteCount` bytes with the first coder that can
    /// decode them, or says how many bytes it needs; see ``ImageCoding/info(forPrefix:totalByteCount:)``.
    ///
    /// Without a coder for the bytes given, the whole data is asked for (a format may need more bytes to be told
    /// apart), and the whole data is then read with ``info(for:)``. A request for more bytes always asks for
    /// more than `prefix` holds and at most `totalByteCount`.
    ///
    /// - Throws: As ``info(for:)`` for the whole data.
    public func info(forPrefix prefix: Data, totalByteCount: Int) throws(WebImageError) -> ImagePrefixInfo {
        guard prefix.count < totalByteCount else { return .complete(try info(for: prefix)) }
        guard !prefix.isEmpty, let coder = decoder(for: prefix) else { return .needsMoreBytes(atLeast: totalByteCount) }
        switch try coder.info(forPrefix: prefix, totalByteCount: totalByteCount) {
        case .complete(let info):
            return .complete(info)
        case .needsMoreBytes(let count):
            return .needsMoreBytes(atLeast: min(totalByteCount, max(count, prefix.count + 1)))
        }
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        encoder(for: format) != nil
    }

    /// Encodes with the first coder that can encode to `format`.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard let coder = encoder(for: format) else { throw .unsupportedFormat(format, "encode") }
        return try coder.encode(image, as: format, options: options)
    }

    /// Encodes as `format`, or when it is nil as ``ImageCoding/encodingFormat(for:)`` chooses (the image's own
    /// format when some coder encodes it, else GIF for an animation, PNG with alpha, JPEG otherwise).
    public func encode(_ image: Image, as format: ImageFormat? = nil, options: ImageEncodeOptions = ImageEncodeOptions()) throws(WebImageError) -> Data {
        try encode(image, as: format ?? encodingFormat(for: image), options: options)
    }

    // MARK: Progressive and animated

    /// A progressive decoder from the highest-priority coder that can start on `data`, or nil.
    public func makeIncrementalDecoder(for data: Data, options: ImageDecodeOptions) -> (any IncrementalImageDecoding)? {
        for coder in coders.reversed() {
            if let progressive = coder as? any ProgressiveImageCoding, progressive.canDecodeIncrementally(data) {
                return progressive.makeIncrementalDecoder(options: options)
            }
        }
        return nil
    }

    /// A frame source from the highest-priority animated coder that can decode `data`.
    ///
    /// - Throws: `unsupportedFormat` when no animated coder recognises the data.
    public func makeAnimatedImageProvider(
        for data: Data,
        options: ImageDecodeOptions
    ) throws(WebImageError) -> any AnimatedImageProviding {
        for coder in coders.reversed() {
            if let animated = coder as? any AnimatedImageCoding, animated.canDecode(data) {
                return try animated.makeAnimatedImageProvider(for: data, options: options)
            }
        }
        throw .unsupportedFormat(ImageFormat.detect(data), "animate")
    }

    private func coder(decoding data: Data) throws(WebImageError) -> any ImageCoding {
        guard !data.isEmpty else { throw WebImageError(.badImageData, "the data is empty (0 bytes)") }
        guard let coder = decoder(for: data) else { throw .unsupportedFormat(ImageFormat.detect(data)) }
        return coder
    }
}
