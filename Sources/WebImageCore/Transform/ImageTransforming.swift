/// Turns a loaded image into another (resized, cropped, rounded...), as SDWebImage's `SDImageTransformer`.
///
/// The manager runs the transformer after a load and caches the result under the original key with
/// `-<transformerKey>` inserted before its extension (`ImageCacheKeys.transformedKey(for:transformerKey:)`), so
/// that a transformed image is found again without loading or transforming.
///
/// Threading: ``transform(image:key:)`` runs on the manager's decode executor, never on the caller's thread or a
/// cache's queue; implementations must be thread-safe and must not block on other loads.
public protocol ImageTransforming: Sendable {
    /// Identifies the transformation and its parameters; part of the cache key, so two transformers that give
    /// different results must have different keys.
    var transformerKey: String { get }

    /// The transformed image, or nil to keep `image` as it is.
    ///
    /// - Parameters:
    ///   - image: The loaded image.
    ///   - key: The cache key the result will be stored under.
    func transform(image: Image, key: String) -> Image?

    /// Whether the result keeps the source's metadata (format, loop count, scale), as SDWebImage's
    /// `preserveImageMetadata`; true by default.
    var preserveImageMetadata: Bool { get }
}

extension ImageTransforming {
    /// True: a transformed image keeps its source's format, loop count and scale.
    public var preserveImageMetadata: Bool { true }
}
