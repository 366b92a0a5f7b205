#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a target knows of the last load started under one operation key (SDWebImage's `SDWebImageLoadState`).
public struct WebImageLoadState: Sendable {
    /// The URL of the last load started under the key; nil when it was started without one.
    public var url: URL?
    /// How far that load has come.
    public var progress: WebImageProgress

    /// A state for `url` with no progress yet.
    public init(url: URL?, progress: WebImageProgress = WebImageProgress()) {
        self.url = url
        self.progress = progress
    }
}
