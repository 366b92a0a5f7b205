#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// One caller's part of a download.
///
/// Cancelling completes this caller at once with `cancelled` and leaves the transfer running for its other
/// callers; the transfer stops when its last caller cancels. Thread-safe.
public final class ImageDownloadToken: ImageLoadToken {
    /// Where the caller's one completion goes: a decoded image or the body alone.
    enum Delivery: Sendable {
        case image(CompletionLatch<DownloadedImage>)
        case data(CompletionLatch<DownloadedImageData>)
    }

    /// The URL the caller asked for.
    public let url: URL
    let delivery: Delivery
    /// The transfer's metrics once it has ended, and what to let go when the caller's holder cancels after the
    /// completion (see ``holdBody(until:)``); made before the token when the completion records the metrics.
    final class Extras: Sendable {
        fileprivate let state = Locked<(metrics: ImageDownloadMetrics?, release: (@Sendable () -> Void)?)>((nil, nil))

        func record(_ metrics: ImageDownloadMetrics) {
            state.withLock { $0.metrics = metrics }
        }
    }

    private let extras: Extras

    init(url: URL, delivery: Delivery, extras: Extras = Extras()) {
        self.url = url
        self.delivery = delivery
        self.extras = extras
    }

    /// Cancels this caller's part; after the completion, only lets go of the body it may hold for Core's decode.
    public func cancel() {
        switch delivery {
        case .image(let latch): latch.cancel()
        case .data(let latch): latch.cancel()
        }
        let release = extras.state.withLock { $0.release.take() }
        release?()
    }

    public var isCancelled: Bool {
        switch delivery {
        case .image(let latch): latch.isCancelled
        case .data(let latch): latch.isCancelled
        }
    }

    public var isFinished: Bool {
        switch delivery {
        case .image(let latch): latch.isDone
        case .data(let latch): latch.isDone
        }
    }

    /// The metrics of the transfer that served this caller, once it has ended; nil before, and for callers
    /// that failed before a transfer started.
    public var metrics: ImageDownloadMetrics? {
        extras.state.withLock { $0.metrics }
    }

    func record(_ metrics: ImageDownloadMetrics) {
        extras.record(metrics)
    }

    /// Keeps what `release` lets go until this token is cancelled, which Core does once it has decoded the body.
    func holdBody(until release: @escaping @Sendable () -> Void) {
        extras.state.withLock { $0.release = release }
    }

    /// Runs `hook` when the caller cancels (at once if it already has).
    func onCancel(_ hook: @escaping @Sendable () -> Void) {
        switch delivery {
        case .image(let latch): latch.onCancel(hook)
        case .data(let latch): latch.onCancel(hook)
        }
    }
}
