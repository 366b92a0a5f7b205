#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The steps the loaders of bytes already at hand (`data:` and `file:` URLs) share: read on the executor,
/// one progress report, the context's decryptor, the decode, one completion. Cancellation is checked before
/// the read and before the decode; the latch keeps the completion to once.
enum LocalImageLoad {
    /// Starts the load and returns its token.
    ///
    /// - Parameters:
    ///   - what: Names the source in messages ("a data URL", a path).
    ///   - cacheKey: The key whose `@2x`/`@3x` sets the scale, or nil.
    ///   - read: Produces the bytes; runs on `executor`.
    static func start(
        what: String,
        cacheKey: String?,
        options: ImageOptions,
        context: ImageContext,
        coder: any ImageCoding,
        executor: BoundedExecutor,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler,
        read: @escaping @Sendable () throws(WebImageError) -> Data
    ) -> any ImageLoadToken {
        let latch = CompletionLatch<DownloadedImage>(
            callbackQueue: context.callbackQueue ?? .default,
            cancellationError: WebImageError(.cancelled, "the load of \(what) was cancelled"),
            handler: completion
        )
        let coder = context.imageCoder ?? coder
        let decodeOptions = context.decodeOptions(for: options, cacheKey: cacheKey)
        let decryptor = context.decryptor
        executor.submit {
            guard !latch.isDone else { return }
            do throws(WebImageError) {
                var data = try read()
                progress?(ImageLoadProgress(receivedBytes: Int64(data.count), expectedBytes: Int64(data.count)))
                if let decryptor {
                    guard let decrypted = decryptor(data, nil) else {
                        throw WebImageError(.badImageData, "the decryptor refused the data of \(what)")
                    }
                    data = decrypted
                }
                guard !latch.isDone else { return }
                let image = try coder.decodeForLoad(data, options: decodeOptions)
                latch.finish(.success(DownloadedImage(image: image, data: data)))
            } catch {
                latch.finish(.failure(error))
            }
        }
        return LatchLoadToken(latch: latch)
    }
}
