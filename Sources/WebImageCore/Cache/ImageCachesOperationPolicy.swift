/// Which caches of an ``ImageCaches`` an operation goes to, and in what order, as SDWebImage's
/// `SDImageCachesManagerOperationPolicy`. ``ImageCaches/caches`` lists them highest priority first.
public enum ImageCachesOperationPolicy: Sendable, Hashable {
    /// The highest-priority cache alone.
    case highestOnly
    /// The lowest-priority cache alone.
    case lowestOnly
    /// Every cache at once. A query or a contains check answers with the first cache to find the key (the others
    /// are cancelled or ignored); a store, remove or clear completes when every cache has.
    case concurrent
    /// One cache after another, highest priority first, each started when the one before has answered. A query or
    /// a contains check stops at the first cache that finds the key; a store, remove or clear goes through all.
    case serial
}
