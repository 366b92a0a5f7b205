#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sets an image, or nil, in one slot of a render target: `(image, data, cacheType, url)`, as SDWebImage's
/// `SDSetImageBlock`. Called on the target's callback queue.
public typealias WebImageSetter = @Sendable (_ image: Image?, _ data: Data?, _ cacheType: ImageCacheType, _ url: URL?) -> Void

/// Anything that shows images loaded by URL: a toolkit's widget wrapper, a terminal renderer, a test double.
/// SDWebImage's view category (`UIView+WebCache`), without a view.
///
/// A target keeps a ``WebImageTargetState`` and says how to show an image; the extension methods
/// (``setImage(with:placeholder:options:context:progress:completion:)``, ``cancelCurrentImageLoad()``,
/// ``imageURL``, ``imageProgress``) do the rest, step for step as SDWebImage's `sd_internalSetImageWithURL`:
/// the load under the target's operation key replaces the one before it, the placeholder shows while it runs, a
/// memory-cache hit is shown at once with no placeholder first, and a late result of an earlier load never
/// reaches the target.
///
/// ```swift
/// final class Thumbnail: WebImageTarget {
///     let webImageState = WebImageTargetState()
///     let webImageCallbackQueue = CallbackQueue.main        // a user interface sets images on its main queue
///     private let shown = Mutex<Image?>(nil)
///
///     func setWebImage(_ image: Image?, data: Data?, cacheType: ImageCacheType, url: URL?) {
///         shown.withLock { $0 = image }                      // draw it
///     }
/// }
///
/// thumbnail.setImage(with: url, placeholder: gray, context: context)
/// ```
///
/// Threading: images are set, and completions and progress run, on ``webImageCallbackQueue`` (or the
/// context's callback queue when it names one). Start loads on that queue too: then results and new loads are
/// ordered, and a memory hit is set before `setImage` returns.
public protocol WebImageTarget: AnyObject, Sendable {
    /// The binding state; a stored property made once: `let webImageState = WebImageTargetState()`.
    var webImageState: WebImageTargetState { get }

    /// Where images are set and completions run unless a load's context names a queue: `.main` for a user
    /// interface, a queue of the target's own otherwise.
    var webImageCallbackQueue: CallbackQueue { get }

    /// The manager that loads the target's images unless a load's context names one
    /// (``ImageContext/imageManager``). The `WebImage` module makes it `ImageManager.shared` by default.
    var webImageManager: ImageManager { get }

    /// Shows `image` in the target's main slot; nil clears it. Called on the callback queue.
    ///
    /// - Parameters:
    ///   - image: The loaded image, a partial image of a progressive load, or the placeholder.
    ///   - data: The bytes the image was decoded from, when the load has them.
    ///   - cacheType: Where the image came from (`.none` for the placeholder and loaded images).
    ///   - url: The URL of the load.
    func setWebImage(_ image: Image?, data: Data?, cacheType: ImageCacheType, url: URL?)
}

extension WebImageTarget {
    /// The operation key of loads whose context names none: the target's type name, as SDWebImage uses the view's
    /// class name.
    public var defaultOperationKey: String {
        String(describing: type(of: self))
    }

    /// The URL of the load started last, under any key (SDWebImage's `sd_imageURL`); nil before the first.
    public var imageURL: URL? {
        let state = webImageState
        return state.latestOperationKey.flatMap { state.loadState(forKey: $0)?.url }
    }

    /// The progress of the load started last, under any key (SDWebImage's `sd_imageProgress`).
    public var imageProgress: WebImageProgress {
        let state = webImageState
        return state.latestOperationKey.flatMap { state.loadState(forKey: $0)?.progress } ?? WebImageProgress()
    }

    /// Cancels the load started last, under any key (SDWebImage's `sd_cancelLatestImageLoad`): it completes with
    /// `cancelled` unless it has completed already, and nothing it delivers is set afterwards.
    public func cancelCurrentImageLoad() {
        guard let key = webImageState.latestOperationKey else { return }
        cancelImageLoad(forKey: key)
    }

    /// Cancels the load under `key`: it completes with `cancelled` unless it has completed already, and nothing
    /// it delivers is set afterwards. Other keys' loads go on.
    public func cancelImageLoad(forKey key: String) {
        webImageState.retire(key: key)
        webImageState.cancelOperation(forKey: key)
    }
}

/// Shows that a target is loading: a spinner, a progress bar, a line in a terminal (SDWebImage's
/// `SDWebImageIndicator`).
///
/// Set one on a target's ``WebImageTargetState/indicator``. Every call comes on the target's callback queue, from
/// the current load of some operation key only: a load that a later one replaced never touches it.
public protocol WebImageIndicator: Sendable {
    /// A load has started.
    func startAnimating()
    /// The load has finished: with an image, an error, or cancelled.
    func stopAnimating()
    /// The load's progress, from 0 to 1 (clamped; 0 while the size is unknown).
    func updateIndicatorProgress(_ fraction: Double)
}
