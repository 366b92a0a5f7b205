import WebImageCodecs
import WebImageCore
import WebImageCurl

extension ImageManager {
    /// The manager most code uses: ``ImageCache/shared`` in front of `data:` URLs and ``ImageDownloader/shared``,
    /// decoding and encoding with the shared coder registry.
    public static let shared = ImageManager(
        cache: ImageCache.shared,
        loader: ImageLoaders([DataURLImageLoader(coder: ImageCoderRegistry.shared), ImageDownloader.shared]),
        coder: ImageCoderRegistry.shared
    )
}
