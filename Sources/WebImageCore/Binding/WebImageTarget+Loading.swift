#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WebImageTarget {
    /// Loads the image at `url` into the target's main slot (``WebImageTarget/setWebImage(_:data:cacheType:url:)``),
    /// as SDWebImage's `sd_setImageWithURL:placeholderImage:options:context:`, with no completion.
    ///
    /// ```swift
    /// avatar.setImage(with: url, placeholder: silhouette)
    /// ```
    ///
    /// See ``setImage(with:placeholder:options:context:setter:progress:completion:)`` for the steps.
    @discardableResult
    public func setImage(
        with url: URL?,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        context: ImageContext = ImageContext()
    ) -> ImageLoadOperation? {
        setImage(with: url, placeholder: placeholder, options: options, context: context, setter: mainSlotSetter, progress: nil, completion: nil)
    }

    /// Loads the image at `url` into the target's main slot (``WebImageTarget/setWebImage(_:data:cacheType:url:)``),
    /// as SDWebImage's `sd_setImageWithURL:placeholderImage:options:context:progress:completed:`.
    ///
    /// ```swift
    /// avatar.setImage(with: url, placeholder: silhouette, options: [.retryFailed]) { result in
    ///     if case .failure(let error) = result { log(error) }     // the placeholder stays
    /// }
    /// ```
    ///
    /// See ``setImage(with:placeholder:options:context:setter:progress:completion:)`` for the steps.
    @discardableResult
    public func setImage(
        with url: URL?,
        placeholder: Image? = nil,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        progress: ImageLoadProgressHandler? = nil,
        completion: @escaping ImageLoadResultHandler
    ) -> ImageLoadOperation? {
        setImage(
            with: url, placeholder: placeholder, options: options, context: context, setter: mainSlotSetter,
            progress: progress, completion: completion
        )
    }

    /// Sets images through ``WebImageTarget/setWebImage(_:data:cacheType:url:)`` while the target lives.
    private var mainSlotSetter: WebImageSetter {
        { [weak self] image, data, cacheType, url in
            self?.setWebImage(image, data: data, cacheType: cacheType, url: url)
        }
    }

    /// Loads the image at `url` into one slot of the target, through `setter` (SDWebImage's
    /// `sd_internalSetImageWithURL`). Other slots, such as a background image, call this with an operation key of
    /// their own in `context.operationKey`, so that their loads do not cancel the main slot's.
    ///
    /// The steps:
    /// 1. The operation key is `context.operationKey`, else ``defaultOperationKey``; it becomes the latest key.
    /// 2. Unless `avoidAutoCancelImage`, the load running under the key is cancelled (its completion runs with
    ///    `cancelled`). Whatever an earlier load under the key delivers from now on is not set: with
    ///    `avoidAutoCancelImage` it still completes, without setting anything once a later load has started.
    /// 3. The key's state records `url` (also nil) and resets its progress to 0.
    /// 4. Unless `delayPlaceholder`, the placeholder (also nil) is set, except when the memory cache holds the image
    ///    and the result is ready during this call: then the image is set at once, with no placeholder before it.
    /// 5. A nil `url` completes with `invalidURL` and loads nothing.
    /// 6. The indicator starts, and the load runs through the context's manager or ``webImageManager``. Progress
    ///    updates the key's state and the indicator (0…1, clamped), then calls `progress`.
    /// 7. On each result: a finished load stops the indicator, and with an image and no size reported sets the
    ///    progress to 1 of 1. The image is set unless `avoidAutoSetImage`; a failure keeps the placeholder unless
    ///    `delayPlaceholder`, which sets it then. Partial images of progressive loads are set as they come; the
    ///    completion runs for them only with `avoidAutoSetImage`. Final images from the network or an asynchronous
    ///    disk query (any image with `forceTransition`) go through the state's transition, when there is one;
    ///    with `waitTransition` the completion waits until the transition has ended.
    /// 8. The load is kept (weakly) under the key, unless a later load has taken the key during this call.
    ///
    /// - Parameters:
    ///   - url: The image's URL; nil sets the placeholder and fails with `invalidURL`.
    ///   - placeholder: Shown while the load runs; nil clears the slot.
    ///   - options: Flags; the view-binding ones are `delayPlaceholder`, `avoidAutoSetImage`,
    ///     `avoidAutoCancelImage`, `forceTransition` and `waitTransition`.
    ///   - context: Per-load settings; `operationKey`, `imageManager` and `callbackQueue` are read here.
    ///   - setter: Shows an image (or nil) in the slot, on the callback queue.
    ///   - progress: Bytes received, on the callback queue.
    ///   - completion: Runs once with the final result on the callback queue, also when the load is cancelled or
    ///     the target has been released (with `avoidAutoSetImage`, also with each partial image).
    /// - Returns: The load, or nil when `url` is nil. Cancelling it completes it with `cancelled`; nothing it
    ///   delivers after that is set.
    @discardableResult
    public func setImage(
        with url: URL?,
        placeholder: Image?,
        options: ImageOptions,
        context: ImageContext,
        setter: @escaping WebImageSetter,
        progress: ImageLoadProgressHandler?,
        completion: ImageLoadResultHandler?
    ) -> ImageLoadOperation? {
        var context = context
        let key = context.operationKey ?? defaultOperationKey
        context.operationKey = key
        let state = webImageState
        // The new load is current before the old one is cancelled: its cancellation, delivered at once on this
        // queue, must not set the old placeholder.
        let generation = state.begin(key: key, url: url)
        if !options.contains(.avoidAutoCancelImage) {
            state.cancelOperation(forKey: key)
        }
        let manager = context.imageManager ?? webImageManager
        context.imageManager = nil
        let queue = context.callbackQueue ?? webImageCallbackQueue
        context.callbackQueue = queue
        let slot = WebImageSlot(state: state, key: key, generation: generation, setter: setter)

        guard let url else {
            setPlaceholder(placeholder, in: slot, url: nil, options: options, queue: queue)
            let error = WebImageError(.invalidURL, "the image URL is nil")
            queue.execute(duringCall: true) {
                slot.indicator?.stopAnimating()
                completion?(.failure(error))
            }
            return nil
        }
        let deliver: ImageLoadResultHandler = { [weak self] result in
            let decision = WebImageSetDecision(
                outcome: result.success?.outcome, cacheType: result.success?.cacheType ?? .none, options: options
            )
            guard self != nil else {
                // SDWebImage drops the result of a view that is gone; the caller still hears of its load.
                if decision.callsCompletion { completion?(result) }
                return
            }
            slot.deliver(result, decision: decision, placeholder: placeholder, url: url, options: options, completion: completion)
        }
        queue.execute(duringCall: true) { slot.indicator?.startAnimating() }
        // The memory tier first: a hit shows at once, with no placeholder before it.
        let operation: ImageLoadOperation
        if queue.runsInline(duringCall: true),
           let image = manager.memoryHit(url, options: options, context: context, settings: manager.settingsIfAny) {
            deliver(.success(.memoryHit(image, url: url)))
            operation = ImageLoadOperation(deliveredDuringCall: url)
        } else {
            setPlaceholder(placeholder, in: slot, url: url, options: options, queue: queue)
            operation = manager.loadImage(url: url, options: options, context: context, progress: { report in
                slot.progress(received: report.receivedBytes, expected: report.expectedBytes)
                progress?(report)
            }, completion: deliver)
        }
        state.setOperation(operation, forKey: key, generation: generation)
        return operation
    }

    /// Shows the placeholder before a load that the memory tier did not complete, unless `delayPlaceholder` keeps
    /// it for a failure.
    private func setPlaceholder(_ placeholder: Image?, in slot: WebImageSlot, url: URL?, options: ImageOptions, queue: CallbackQueue) {
        guard !options.contains(.delayPlaceholder) else { return }
        queue.execute(duringCall: true) { slot.set(placeholder, data: nil, cacheType: .none, url: url) }
    }
}

extension Result {
    /// The success value, or nil.
    fileprivate var success: Success? {
        if case .success(let value) = self { value } else { nil }
    }
}

extension ImageContext.Key {
    /// The key of ``ImageContext/imageManager``.
    public static let imageManager = ImageContext.Key(rawValue: "imageManager")
}

extension ImageContext {
    /// The manager a view binding loads through in place of its target's (SDWebImage's `customManager`); the
    /// manager itself ignores it. Kept among the extension values, as the binding is the only floor that knows
    /// managers.
    public var imageManager: ImageManager? {
        get { self[.imageManager] as? ImageManager }
        set { self[.imageManager] = newValue }
    }
}
