#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The steps the loaders of bytes already at hand (`data:` and `file:` URLs) share: read on the executor, one
/// progress report, the context's decryptor, one completion. Cancellation is checked before the read and before
/// the completion; the latch keeps the completion to once.
enum LocalImageLoad {
    /// Starts the read and returns its token.
    ///
    /// - Parameters:
    ///   - what: Names the source in messages ("a data URL", a path).
    ///   - read: Produces the bytes; runs on `executor`.
    static func start(
        what: String,
        context: ImageContext,
        executor: BoundedExecutor,
        progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void,
        read: @escaping @Sendable () throws(WebImageError) -> Data
    ) -> any ImageLoadToken {
        let latch = CompletionLatch<DownloadedImageData>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the load of \(what) was cancelled") },
            handler: completion
        )
        let decryptor = context.decryptor
        executor.submit {
            guard !latch.isDone else { return }
            do throws(WebImageError) {
                let data = try read()
                progress?(ImageLoadProgress(receivedBytes: Int64(data.count), expectedBytes: Int64(data.count)))
                latch.finish(.success(try DownloadedImageData(data: data, response: nil).decrypted(by: decryptor, what: what)))
            } catch {
                latch.finish(.failure(error))
            }
        }
        return LatchLoadToken(latch: latch)
    }
}
