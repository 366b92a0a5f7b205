#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// A data loader for tests whose requests wait until the test answers them: with progress (and the bytes so far),
/// bytes or an error. Records every request with its context; thread-safe.
public final class ScriptedDataLoader: ImageDataLoading {
    /// One request, until it is answered or cancelled.
    public final class Request: ImageLoadToken {
        public let url: URL
        public let options: ImageOptions
        public let context: ImageContext
        private let state: Locked<State>

        private struct State {
            var progress: ImageLoadProgressHandler?
            var completion: (@Sendable (Result<DownloadedImageData, WebImageError>) -> Void)?
            var cancelled = false
            /// Calls of `cancel()`, after the completion too.
            var cancelCalls = 0
        }

        init(
            url: URL, options: ImageOptions, context: ImageContext, progress: ImageLoadProgressHandler?,
            completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
        ) {
            self.url = url
            self.options = options
            self.context = context
            state = Locked(State(progress: progress, completion: completion))
        }

        public func cancel() {
            let completion = state.withLock { state -> (@Sendable (Result<DownloadedImageData, WebImageError>) -> Void)? in
                state.cancelCalls += 1
                guard state.completion != nil else { return nil }
                state.cancelled = true
                state.progress = nil
                return state.completion.take()
            }
            completion?(.failure(WebImageError(.cancelled, "cancelled \(url)")))
        }

        public var isCancelled: Bool { state.withLock { $0.cancelled } }
        public var isFinished: Bool { state.withLock { $0.completion == nil } }
        /// How many times `cancel()` was called, before or after the completion.
        public var cancelCalls: Int { state.withLock { $0.cancelCalls } }

        /// Reports `received` bytes of `expected`, with the bytes so far when given.
        public func report(received: Int64, expected: Int64, data: Data? = nil) {
            let progress = state.withLock { $0.progress }
            progress?(ImageLoadProgress(receivedBytes: received, expectedBytes: expected, receivedData: data))
        }

        /// Completes with `data`.
        public func succeed(_ data: Data, response: ImageResponse? = nil) {
            finish(.success(DownloadedImageData(data: data, response: response)))
        }

        /// Completes with `error`.
        public func fail(_ error: WebImageError) {
            finish(.failure(error))
        }

        private func finish(_ result: Result<DownloadedImageData, WebImageError>) {
            let completion = state.withLock { state -> (@Sendable (Result<DownloadedImageData, WebImageError>) -> Void)? in
                state.progress = nil
                return state.completion.take()
            }
            completion?(result)
        }
    }

    private let requests = Locked<[Request]>([])

    public init() {}

    public func canRequestData(for url: URL) -> Bool { true }

    public func requestData(
        url: URL, options: ImageOptions, context: ImageContext, progress: ImageLoadProgressHandler?,
        completion: @escaping @Sendable (Result<DownloadedImageData, WebImageError>) -> Void
    ) -> any ImageLoadToken {
        let request = Request(url: url, options: options, context: context, progress: progress, completion: completion)
        requests.withLock { $0.append(request) }
        return request
    }

    /// Every request made so far.
    public var all: [Request] { requests.withLock { $0 } }

    /// The last request for `url`, once it has been made (waits at most 10 s).
    public func request(for url: URL) async -> Request? {
        _ = await waitUntil(timeout: .seconds(10)) { [self] in requests.withLock { $0.contains { $0.url == url } } }
        return requests.withLock { $0.last { $0.url == url } }
    }
}
