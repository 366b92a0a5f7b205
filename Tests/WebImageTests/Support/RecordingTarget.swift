import Foundation
import WebImage
import WebImageCore

/// A render target for tests: records every image set in its two slots (the main image and a background), on
/// a serial queue of its own.
final class RecordingTarget: WebImageTarget {
    /// One call of a setter.
    struct Shown: Sendable {
        var slot: String
        var image: Image?
        var cacheType: ImageCacheType
        var url: URL?
        var onQueue: Bool
    }

    let webImageState = WebImageTargetState()
    let queue: DispatchQueue
    let webImageCallbackQueue: CallbackQueue
    let webImageManager: ImageManager
    private let log = Locked<[Shown]>([])
    private static let queueKey = DispatchSpecificKey<Bool>()

    init(manager: ImageManager) {
        queue = DispatchQueue(label: "RecordingTarget")
        queue.setSpecific(key: Self.queueKey, value: true)
        webImageCallbackQueue = CallbackQueue(queue)
        webImageManager = manager
    }

    func setWebImage(_ image: Image?, data: Data?, cacheType: ImageCacheType, url: URL?) {
        record(slot: "image", image, cacheType: cacheType, url: url)
    }

    /// Loads into the background slot, under its own operation key (as `UIButton`'s background image).
    @discardableResult
    func setBackgroundImage(
        with url: URL?, placeholder: Image? = nil, options: ImageOptions = [],
        completion: ImageLoadResultHandler? = nil
    ) -> ImageLoadOperation? {
        var context = ImageContext()
        context.operationKey = "background"
        return setImage(with: url, placeholder: placeholder, options: options, context: context, setter: { [weak self] image, _, cacheType, url in
            self?.record(slot: "background", image, cacheType: cacheType, url: url)
        }, progress: nil, completion: completion)
    }

    private func record(slot: String, _ image: Image?, cacheType: ImageCacheType, url: URL?) {
        let onQueue = DispatchQueue.getSpecific(key: Self.queueKey) == true
        log.withLock { $0.append(Shown(slot: slot, image: image, cacheType: cacheType, url: url, onQueue: onQueue)) }
    }

    /// Everything set so far, in order.
    var shown: [Shown] { log.withLock { $0 } }

    /// What the slot shows now (nil when nothing was set, or nil was).
    func current(_ slot: String = "image") -> Shown? {
        log.withLock { $0.last { $0.slot == slot } }
    }

    /// Runs `body` on the target's queue and returns its result, as a user interface starts loads on its main
    /// queue.
    func onQueue<T: Sendable>(_ body: @Sendable () -> T) -> T {
        queue.sync(execute: body)
    }

    /// Waits until the target's queue has run everything submitted before this call.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}

/// Records every result a completion receives.
final class ResultLog: Sendable {
    private let results = Locked<[Result<ImageLoadResult, WebImageError>]>([])

    var handler: ImageLoadResultHandler {
        { [self] result in results.withLock { $0.append(result) } }
    }

    var all: [Result<ImageLoadResult, WebImageError>] { results.withLock { $0 } }
    var count: Int { results.withLock { $0.count } }

    var errorCodes: [WebImageError.Code] {
        all.compactMap { if case .failure(let error) = $0 { error.code } else { nil } }
    }

    var images: [Image] {
        all.compactMap { if case .success(let loaded) = $0 { loaded.image } else { nil } }
    }
}

/// Records an indicator's calls.
final class RecordingIndicator: WebImageIndicator {
    enum Call: Equatable, Sendable {
        case start, stop, progress(Double)
    }

    private let log = Locked<[Call]>([])
    var calls: [Call] { log.withLock { $0 } }

    func startAnimating() { log.withLock { $0.append(.start) } }
    func stopAnimating() { log.withLock { $0.append(.stop) } }
    func updateIndicatorProgress(_ fraction: Double) { log.withLock { $0.append(.progress(fraction)) } }
}

/// A transition that holds its steps until the test runs them.
final class HeldTransition: WebImageTransition {
    struct Run: Sendable {
        var image: Image?
        var cacheType: ImageCacheType
        var apply: @Sendable () -> Bool
        var completion: @Sendable (Bool) -> Void
    }

    private let log = Locked<[Run]>([])
    /// Whether it applies and completes at once, instead of waiting for the test.
    let immediate: Bool

    init(immediate: Bool = false) {
        self.immediate = immediate
    }

    var runs: [Run] { log.withLock { $0 } }

    func run(
        image: Image?, cacheType: ImageCacheType, url: URL?,
        apply: @escaping @Sendable () -> Bool, completion: @escaping @Sendable (Bool) -> Void
    ) {
        log.withLock { $0.append(Run(image: image, cacheType: cacheType, apply: apply, completion: completion)) }
        if immediate {
            _ = apply()
            completion(true)
        }
    }
}
