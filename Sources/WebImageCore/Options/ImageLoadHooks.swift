#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a URL into its cache key, as SDWebImage's `SDWebImageCacheKeyFilter` (to drop a signed query string,
/// say). Called on the thread that starts the load; must be fast and thread-safe.
public typealias ImageCacheKeyFilter = @Sendable (URL) -> String

/// Chooses the bytes the disk cache stores for a loaded image, as SDWebImage's `SDWebImageCacheSerializer`:
/// `(image, data, url)`, where `data` is what was loaded (nil for a thumbnail or a transformed image). Returning nil
/// lets the cache encode the image. Runs on the decode executor.
public typealias ImageCacheSerializer = @Sendable (Image, Data?, URL) -> Data?

/// Rewrites a load's options and context before anything else happens, as SDWebImage's
/// `SDWebImageOptionsProcessor`; nil keeps them. Called on the thread that starts the load.
public typealias ImageOptionsProcessor = @Sendable (URL?, ImageOptions, ImageContext) -> (ImageOptions, ImageContext)?
