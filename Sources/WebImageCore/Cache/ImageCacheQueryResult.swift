#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a cache query found.
public struct ImageCacheQueryResult: Sendable {
    /// The image, or nil on a miss.
    public var image: Image?
    /// The encoded data, when the query read it (disk hits, and memory hits with `queryMemoryData`).
    public var data: Data?
    /// Where the image was found; `.none` on a miss.
    public var cacheType: ImageCacheType

    public init(image: Image?, data: Data? = nil, cacheType: ImageCacheType) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
    }

    /// A miss.
    public static let miss = ImageCacheQueryResult(image: nil, cacheType: .none)
}
