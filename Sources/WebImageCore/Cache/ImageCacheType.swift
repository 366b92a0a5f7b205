/// The tiers of an image cache. In a request: which tiers to touch. In a result: where the image was found.
///
/// The raw values are SDWebImage's `SDImageCacheType`.
public enum ImageCacheType: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No tier: skip the cache, or the image was not found in it.
    case none = 0
    /// The disk tier.
    case disk = 1
    /// The memory tier.
    case memory = 2
    /// Both tiers.
    case all = 3

    /// Whether the memory tier is included.
    public var includesMemory: Bool { self == .memory || self == .all }
    /// Whether the disk tier is included.
    public var includesDisk: Bool { self == .disk || self == .all }

    /// This set of tiers without the disk.
    public var withoutDisk: ImageCacheType { includesMemory ? .memory : .none }
    /// This set of tiers without the memory.
    public var withoutMemory: ImageCacheType { includesDisk ? .disk : .none }

    public var description: String {
        switch self {
        case .none: "none"
        case .disk: "disk"
        case .memory: "memory"
        case .all: "all"
        }
    }
}
