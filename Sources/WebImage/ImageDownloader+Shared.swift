import WebImageCodecs
import WebImageCore
import WebImageCurl

extension ImageDownloader {
    /// The downloader most code uses: the default configuration and the shared coder registry. Its curl thread
    /// starts on first use and lives as long as the process.
    public static let shared = ImageDownloader(coder: ImageCoderRegistry.shared)
}
