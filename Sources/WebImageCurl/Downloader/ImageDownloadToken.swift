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
    private let transferMetrics = Locked<ImageDownloadMetrics?>(nil)

    init(url: URL, delivery: Delivery) {
        self.url = url
        self.delivery = delivery
    }

    public func cancel() {
        switch delivery {
        case .image(let latch): latch.cancel()
        case .data(let latch): latch.cancel()
        }
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

    /// Whether the caller wants the body alone, undecoded.
    var wantsData: Bool {
        if case .data = delivery { true } else { false }
    }

    /// The metrics of the transfer that served this caller, once it has ended; nil before, and for callers
    /// that failed before a transfer started.
    public var metrics: ImageDownloadMetrics? {
        transferMetrics.withLock { $0 }
    }

    func record(_ metrics: ImageDownloadMetrics) {
        transferMetrics.withLock { $0 = metrics }
    }

    /// Runs `hook` when the caller cancels (at once if it already has).
    func onCancel(_ hook: @escaping @Sendable () -> Void) {
        switch delivery {
        case .image(let latch): latch.onCancel(hook)
        case .data(let latch): latch.onCancel(hook)
        }
    }

    /// Completes the caller with `outcome`, unless it is already done. A data caller served from a decoded image
    /// gets the image's body; an image caller is never handed an outcome without an image.
    func finish(
        _ outcome: Result<DownloadOutcome, WebImageError>, duringCall: Bool = false, onFreeGlobalThread: Bool = false,
        batch: DeliveryBatch? = nil, before: (@Sendable () -> Void)? = nil
    ) {
        switch delivery {
        case .image(let latch):
            let result: Result<DownloadedImage, WebImageError> = switch outcome {
            case .success(.image(let loaded)): .success(loaded)
            case .success(.data(let body)):
                .failure(WebImageError(.badImageData, "the download of \(body.response.url.absoluteString) was not decoded"))
            case .failure(let error): .failure(error)
            }
            latch.finish(result, duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread, batch: batch, before: before)
        case .data(let latch):
            let result: Result<DownloadedImageData, WebImageError> = switch outcome {
            case .success(.image(let loaded)):
                .success(DownloadedImageData(data: loaded.data, response: loaded.response ?? ImageResponse(url: url, statusCode: 0)))
            case .success(.data(let body)): .success(body)
            case .failure(let error): .failure(error)
            }
            latch.finish(result, duringCall: duringCall, onFreeGlobalThread: onFreeGlobalThread, batch: batch, before: before)
        }
    }
}
