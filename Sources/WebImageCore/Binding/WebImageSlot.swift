#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One load of a ``WebImageTarget`` slot: its key and number in the target's state, and the setter it shows
/// images through. Every effect on the target (setting an image, the progress, the indicator, the transition)
/// happens only while the load is the current one under its key, so a late result of an earlier load never
/// reaches the target.
struct WebImageSlot: Sendable {
    let state: WebImageTargetState
    let key: String
    let generation: UInt64
    let setter: WebImageSetter

    /// Sets `image` through the setter if the load is still current; says whether it did.
    @discardableResult
    func set(_ image: Image?, data: Data?, cacheType: ImageCacheType, url: URL?) -> Bool {
        guard state.isCurrent(key: key, generation: generation) else { return false }
        setter(image, data, cacheType, url)
        return true
    }

    /// The target's indicator, while the load is current.
    var indicator: (any WebImageIndicator)? {
        state.indicator(key: key, generation: generation)
    }

    /// Records a progress report and shows it on the indicator, while the load is current.
    func progress(received: Int64, expected: Int64) {
        guard let (progress, indicator) = state.updateProgress(
            key: key, generation: generation, received: received, expected: expected
        ) else { return }
        indicator?.updateIndicatorProgress(progress.fractionCompleted)
    }

    /// Applies one result of the load as `decision` says, on the callback queue.
    func deliver(
        _ result: Result<ImageLoadResult, WebImageError>,
        decision: WebImageSetDecision,
        placeholder: Image?,
        url: URL,
        options: ImageOptions,
        completion: ImageLoadResultHandler?
    ) {
        if decision.isFinished {
            if case .success = result { state.finishProgress(key: key, generation: generation) }
            indicator?.stopAnimating()
        }
        let complete = OnceCompletion(decision.callsCompletion ? completion : nil, result: result)
        let shown: (image: Image?, data: Data?, cacheType: ImageCacheType)
        switch (decision.content, result) {
        case (.nothing, _):
            return complete.run()
        case (.image, .success(let loaded)):
            shown = (loaded.image, loaded.data, loaded.cacheType)
        case (.placeholder, _), (.image, .failure):
            shown = (placeholder, nil, .none)
        }
        guard decision.usesTransition, let transition = state.transition(key: key, generation: generation) else {
            set(shown.image, data: shown.data, cacheType: shown.cacheType, url: url)
            return complete.run()
        }
        let waits = options.contains(.waitTransition)
        transition.run(
            image: shown.image,
            cacheType: shown.cacheType,
            url: url,
            apply: { set(shown.image, data: shown.data, cacheType: shown.cacheType, url: url) },
            completion: { _ in if waits { complete.run() } }
        )
        if !waits { complete.run() }
    }
}

/// A completion call that happens at most once, whoever asks for it (a transition may end more than once).
private final class OnceCompletion: Sendable {
    private let call: Locked<(@Sendable () -> Void)?>

    init(_ completion: ImageLoadResultHandler?, result: Result<ImageLoadResult, WebImageError>) {
        if let completion {
            call = Locked({ @Sendable in completion(result) })
        } else {
            call = Locked(nil)
        }
    }

    func run() {
        call.withLock { $0.take() }?()
    }
}
