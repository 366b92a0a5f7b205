import WebImageCodecs
import WebImageCore

extension ImageCache {
    /// The cache most code uses: namespace `default` under the default disk root, with the default limits and
    /// the shared coder registry.
    public static let shared = ImageCache(namespace: "default", coder: ImageCoderRegistry.shared)
}
