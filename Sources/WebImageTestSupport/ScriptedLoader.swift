#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// A loader for tests whose requests wait until the test answers them: with progress, partial images, an image or
/// an error. Records every request; thread-safe.
public final class ScriptedLoader: ImageLoading {
    /// One request, until it is answered or cancelled.
    public final class Request: ImageLoadToken {
        public let url: URL
        public let options: ImageOptions
        /// The context the request was made with.
        public let context: ImageContext
        private let state: Locked<(progress: ImageLoadProgressHandler?, completion: DownloadedImageHandler?, cancelled: Bool)>

        init(url: URL, options: ImageOptions, context: ImageContext, progress: ImageLoadProgressHandler?, completion: @escaping DownloadedImageHandler) {
            self.url = url
            self.options = options
            self.context = context
            state = Locked((progress, completion, false))
        }

        public func cancel() {
            let completion = state.withLock { state -> DownloadedImageHandler? in
                guard state.completion != nil else { return nil }
                state.cancelled = true
                state.progress = nil
                return state.completion.take()
            }
            completion?(.failure(WebImageError(.cancelled, "cancelled \(url)")))
        }

        public var isCancelled: Bool { state.withLock { $0.cancelled } }
        public var isFinished: Bool { state.withLock { $0.completion == nil } }

        /// Reports progress, with a partial image when given.
        public func report(received: Int64, expected: Int64, partial: Image? = nil) {
            let progress = state.withLock { $0.progress }
            progress?(ImageLoadProgress(receivedBytes: received, expectedBytes: expected, partialImage: partial))
        }

        /// Completes with `image` and `data` (a few bytes by default).
        public func succeed(_ image: Image, data: Data = Data([1, 2, 3])) {
            finish(.success(DownloadedImage(image: image, data: data)))
        }

        /// Completes with `error`.
        public func fail(_ error: WebImageError) {
            finish(.failure(error))
        }

        private func finish(_ result: Result<DownloadedImage, WebImageError>) {
            let completion = state.withLock { state -> DownloadedImageHandler? in
                state.progress = nil
                return state.completion.take()
            }
            completion?(result)
        }
    }

    private let requests = Locked<[Request]>([])

    public init() {}

    public func canRequestImage(for url: URL) -> Bool { true }

    public func requestImage(
        url: URL, options: ImageOptions, context: ImageContext,
        progress: ImageLoadProgressHandler?, completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        let request = Request(url: url, options: options, context: context, progress: progress, completion: completion)
        requests.withLock { $0.append(request) }
        return request
    }

    public func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool { false }

    /// Every request made so far.
    public var all: [Request] { requests.withLock { $0 } }

    /// The last request for `url`, once it has been made (waits at most 10 s).
    public func request(for url: URL) async -> Request? {
        _ = await waitUntil(timeout: .seconds(10)) { [self] in requests.withLock { $0.contains { $0.url == url } } }
        return requests.withLock { $0.last { $0.url == url } }
    }
}

/// A solid image whose width tells it apart: `width` × 2 pixels of `color`.
public func solidImage(width: Int, color: RGBAColor = .white) -> Image {
    Image(pixels: try! PixelBuffer(width: width, height: 2, color: color), hasAlpha: false)
}
