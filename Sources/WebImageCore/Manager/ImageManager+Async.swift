#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``ImageManager/imageLoadEvents(url:options:context:)`` yields.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far.
    case progress(ImageLoadProgress)
    /// A partial image of a progressive load.
    case partialImage(Image)
    /// A result: the final one, or with `refreshCached` first the cached image
    /// (``ImageLoadResult/Outcome/refreshing``) and then the final one.
    case result(ImageLoadResult)
}

extension ImageManager {
    /// Loads the image at `url` and returns the final result; the same pipeline as
    /// ``loadImage(url:options:context:progress:completion:)``.
    ///
    /// ```swift
    /// let loaded = try await ImageManager.shared.loadImage(url: url)
    /// ```
    ///
    /// The call runs on the caller's executor (`nonisolated(nonsending)`), so that a memory hit returns without
    /// suspending or leaving the caller's actor. Cancelling the task cancels the load, which then throws
    /// `cancelled`. With `refreshCached`, the cached image is skipped and the final result returned. The context's
    /// callback queue is not used.
    nonisolated(nonsending) public func loadImage(
        url: URL?, options: ImageOptions = [], context: ImageContext = ImageContext()
    ) async throws(WebImageError) -> ImageLoadResult {
        // A memory hit returns here, with no continuation and nothing to cancel.
        if let url, let image = memoryHit(url, options: options, context: context, settings: settingsIfAny) {
            return .memoryHit(image, url: url)
        }
        return try await loadThroughOperation(url: url, options: options, context: context)
    }

    /// Loads the image at `url` with the default context and returns the final result: the same load as
    /// ``loadImage(url:options:context:)`` with `ImageContext()`, for the common call that names no context. A
    /// memory hit then reads no context at all.
    ///
    /// ```swift
    /// let loaded = try await manager.loadImage(url: url, options: [.retryFailed])
    /// ```
    ///
    /// Runs on the caller's executor, as ``loadImage(url:options:context:)`` does; a memory hit returns without
    /// suspending. Cancelling the task cancels the load, which then throws `cancelled`.
    nonisolated(nonsending) public func loadImage(
        url: URL?, options: ImageOptions = []
    ) async throws(WebImageError) -> ImageLoadResult {
        if let url, let image = inlinedMemoryHit(url, options: options, settings: settingsIfAny) {
            return .memoryHit(image, url: url)
        }
        return try await loadThroughOperation(url: url, options: options, context: ImageContext())
    }

    /// The callback form's load, awaited: resumed with the final result, cancelled with the task.
    nonisolated(nonsending) private func loadThroughOperation(
        url: URL?, options: ImageOptions, context: ImageContext
    ) async throws(WebImageError) -> ImageLoadResult {
        let context = context.onInlineQueue
        let pending = PendingCancellation<ImageLoadOperation> { $0.cancel() }
        let result: Result<ImageLoadResult, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let operation = loadImage(url: url, options: options, context: context) { result in
                    if case .success(let loaded) = result, !loaded.isFinal { return }
                    continuation.resume(returning: result)
                }
                pending.set(operation)
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }

    /// Loads the image at `url` and yields its progress, its partial images and its result; the stream ends after
    /// the final result, or throws the load's ``WebImageError``.
    ///
    /// ```swift
    /// for try await event in manager.imageLoadEvents(url: url, options: [.progressiveLoad]) {
    ///     if case .partialImage(let image) = event { preview(image) }
    /// }
    /// ```
    ///
    /// Ending the iteration early, or cancelling the task that iterates, cancels the load. The context's callback
    /// queue is not used.
    public func imageLoadEvents(url: URL?, options: ImageOptions = [], context: ImageContext = ImageContext()) -> AsyncThrowingStream<ImageLoadEvent, any Error> {
        let context = context.onInlineQueue
        let (stream, continuation) = AsyncThrowingStream<ImageLoadEvent, any Error>.makeStream()
        // Set before the load starts: a load that ends during the call finishes the stream at once, and a handler
        // set after that would be kept by the finished stream, with the operation it holds.
        let pending = PendingCancellation<ImageLoadOperation> { $0.cancel() }
        continuation.onTermination = { _ in pending.cancel() }
        let operation = loadImage(url: url, options: options, context: context) { progress in
            continuation.yield(.progress(progress))
            if let partial = progress.partialImage { continuation.yield(.partialImage(partial)) }
        } completion: { result in
            switch result {
            case .success(let loaded):
                // Partial images come through the progress reports, as `.partialImage`.
                guard loaded.outcome != .partial else { return }
                continuation.yield(.result(loaded))
                if loaded.isFinal { continuation.finish() }
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        pending.set(operation)
        return stream
    }
}

extension ImageContext {
    /// This context with its callback queue set to inline, for the async forms, which resume wherever the result
    /// is ready.
    fileprivate var onInlineQueue: ImageContext {
        var context = self
        context.callbackQueue = .inline
        return context
    }
}
