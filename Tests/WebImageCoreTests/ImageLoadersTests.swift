import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// A loader for one scheme that records its requests and answers with a fixed error.
private final class SchemeLoader: ImageLoading {
    let scheme: String
    let requests = Locked<[URL]>([])

    init(scheme: String) {
        self.scheme = scheme
    }

    func canRequestImage(for url: URL) -> Bool {
        url.scheme == scheme
    }

    func requestImage(
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        requests.withLock { $0.append(url) }
        let latch = CompletionLatch<DownloadedImage>(callbackQueue: .inline, handler: completion)
        latch.finish(.failure(WebImageError(.badImageData, "from \(scheme)")))
        return LatchLoadToken(latch: latch)
    }

    func shouldBlockFailedURL(_ url: URL, error: WebImageError) -> Bool {
        scheme == "always-block"
    }
}

@Suite struct ImageLoadersTests {
    @Test func theFirstLoaderThatCanRequestGetsTheRequest() {
        let first = SchemeLoader(scheme: "a")
        let second = SchemeLoader(scheme: "a")
        let other = SchemeLoader(scheme: "b")
        let loaders = ImageLoaders([first, second, other])
        loaders.requestImage(url: URL(string: "a://x")!, options: [], context: ImageContext(), progress: nil) { _ in }
        loaders.requestImage(url: URL(string: "b://x")!, options: [], context: ImageContext(), progress: nil) { _ in }
        #expect(first.requests.withLock { $0.count } == 1)
        #expect(second.requests.withLock { $0.count } == 0)
        #expect(other.requests.withLock { $0.count } == 1)
    }

    @Test func anAddedLoaderIsAskedFirstAndCanBeRemoved() {
        let old = SchemeLoader(scheme: "a")
        let new = SchemeLoader(scheme: "a")
        let loaders = ImageLoaders([old])
        loaders.addLoader(new)
        loaders.requestImage(url: URL(string: "a://x")!, options: [], context: ImageContext(), progress: nil) { _ in }
        #expect(new.requests.withLock { $0.count } == 1)
        loaders.removeLoader(new)
        #expect(loaders.loaders.count == 1)
        loaders.requestImage(url: URL(string: "a://x")!, options: [], context: ImageContext(), progress: nil) { _ in }
        #expect(old.requests.withLock { $0.count } == 1)
    }

    @Test func aURLNoLoaderHandlesFailsOnceWithUnsupportedScheme() {
        let loaders = ImageLoaders([SchemeLoader(scheme: "a")])
        #expect(!loaders.canRequestImage(for: URL(string: "gopher://x")!))
        var context = ImageContext()
        context.callbackQueue = .inline
        let results = Locked<[Result<DownloadedImage, WebImageError>]>([])
        let token = loaders.requestImage(url: URL(string: "gopher://x")!, options: [], context: context, progress: nil) { result in
            results.withLock { $0.append(result) }
        }
        token.cancel()
        #expect(results.withLock { $0.count } == 1)
        #expect(results.withLock { $0.first?.failureCode } == .unsupportedScheme)
        #expect(token.isFinished && !token.isCancelled)
    }

    @Test func blockingIsAskedOfTheLoaderThatHandlesTheURL() {
        let loaders = ImageLoaders([SchemeLoader(scheme: "always-block"), SchemeLoader(scheme: "a")])
        let timeout = WebImageError(.timedOut, "slow")
        #expect(loaders.shouldBlockFailedURL(URL(string: "always-block://x")!, error: timeout))
        #expect(!loaders.shouldBlockFailedURL(URL(string: "a://x")!, error: timeout))
        // No loader: the default classification.
        #expect(loaders.shouldBlockFailedURL(URL(string: "c://x")!, error: WebImageError(.badImageData, "x")))
        #expect(!loaders.shouldBlockFailedURL(URL(string: "c://x")!, error: timeout))
    }

    @Test(arguments: [
        (WebImageError.Code.invalidURL, true), (.badImageData, true), (.tooManyRedirects, true), (.tlsFailure, true),
        (.unsupportedScheme, true), (.responseTooLarge, true), (.invalidDownloadContentType, true),
        (.cancelled, false), (.timedOut, false), (.cannotConnect, false), (.cannotFindHost, false),
        (.connectionLost, false), (.invalidDownloadStatusCode, false), (.cacheNotModified, false),
    ])
    func permanentFailures(code: WebImageError.Code, permanent: Bool) {
        #expect(ImageLoaderFailure.isPermanent(WebImageError(code, "x")) == permanent)
    }

    @Test func requestHeadersAreSetAndReadWithoutRegardToCase() {
        var request = ImageRequest(url: URL(string: "https://x.org/a.png")!)
        request.setValue("a", forHeader: "Accept")
        request.setValue("b", forHeader: "ACCEPT")
        #expect(request.headers == [HTTPHeader(name: "ACCEPT", value: "b")])
        #expect(request.value(forHeader: "accept") == "b")
        request.setValue(nil, forHeader: "accept")
        #expect(request.headers.isEmpty)
        let response = ImageResponse(
            url: request.url, statusCode: 200,
            headers: [HTTPHeader(name: "content-type", value: " Image/PNG ; charset=x"), HTTPHeader(name: "Content-Length", value: "12")]
        )
        #expect(response.mediaType == "image/png")
        #expect(response.expectedContentLength == 12)
    }
}
