#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Shows a newly loaded image gradually: a fade, a flip, or any animation the render target can do
/// (SDWebImage's `SDWebImageTransition`).
///
/// Set one on a target's ``WebImageTargetState/transition``. It runs only for final results that did not come
/// from the memory cache: images loaded from the network, and disk hits found asynchronously (not with
/// `queryMemoryDataSync` or `queryDiskDataSync`); with `forceTransition`, for every final result that is set.
/// Partial images of progressive loads are set without it.
public protocol WebImageTransition: Sendable {
    /// Runs the transition, on the target's callback queue.
    ///
    /// Call `apply` once, at the point of the animation where the new image should be in place (at once, or from
    /// a later animation step): it sets the image unless a later load has taken the operation key in the meantime,
    /// and says whether it did. Call `completion` once when the transition has ended: with `waitTransition`, the
    /// load's completion waits for it.
    ///
    /// - Parameters:
    ///   - image: The image about to be shown (nil: the placeholder of a failed `delayPlaceholder` load, or none).
    ///   - cacheType: Where it came from.
    ///   - url: The URL it was loaded from.
    func run(
        image: Image?,
        cacheType: ImageCacheType,
        url: URL?,
        apply: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (_ finished: Bool) -> Void
    )
}
