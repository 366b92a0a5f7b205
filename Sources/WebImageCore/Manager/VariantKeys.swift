#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The variant keys ``ImageManager/loadImageData(url:options:context:completion:)`` has worked out, by what they
/// are made from, so that a server's warm request finds its bytes in the encoded memory tier without building the
/// key again: a thumbnail's or a transformer's key is SDWebImage's, spliced into the URL's path, which takes far
/// longer than the look-up it leads to.
///
/// Only for contexts whose key depends on nothing but these inputs (no cache key filter, no manager settings). At
/// most ``capacity`` keys; the table starts afresh when full. Thread-safe.
final class VariantKeys: Sendable {
    /// What a variant key is made from.
    struct Inputs: Hashable, Sendable {
        let url: String
        let thumbnail: PixelSize?
        let preservesAspectRatio: Bool?
        let transformerKey: String?
        let format: ImageFormat?
        let encodeOptions: ImageEncodeOptions?

        init(url: URL, context: ImageContext) {
            self.url = url.absoluteString
            thumbnail = context.thumbnailPixelSize
            preservesAspectRatio = context.preserveAspectRatio
            transformerKey = context.disablesTransformer ? nil : context.imageTransformer?.transformerKey
            format = context.encodedFormat
            encodeOptions = context.encodeOptions
        }
    }

    /// The most keys kept.
    static let capacity = 4_096

    private let keys = Locked<[Inputs: String]>([:])

    /// The key made from `inputs`, made with `make` the first time.
    func key(for inputs: Inputs, make: () -> String) -> String {
        if let known = keys.withLock({ $0[inputs] }) { return known }
        let made = make()
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll(keepingCapacity: true) }
            keys[inputs] = made
        }
        return made
    }
}
