import Foundation
import Synchronization
import WebImage
@testable import WebImageCore
@testable import WebImageCurl

/// Fuzzes the downloader end to end: the input is the raw HTTP response a loopback server (``RawHTTPServer``)
/// sends to a real ``ImageDownloader`` at its default configuration, status line, headers and body as they are,
/// to every connection (a redirect to a relative location comes back to the same answer until the redirect
/// limit).
///
/// The process's proxy variables point at the same server, so that a redirect to any other host, or to
/// `https`, also ends there: nothing leaves the machine and no name is looked up.
///
/// Each input is one download: of the data, or of the image (decoded, progressively some of the time), as an
/// ordinary or a conditional request (with an `ETag`), chosen from a hash of the input. The completion must come
/// exactly once, within 20 s (the whole-transfer timeout is 15 s); a success must be a response with an
/// accepted status and a non-empty body within the size limit, and a failure one of the errors the downloader
/// documents. Then the downloader must let go of everything the download held (its shared download, curl's
/// transfer context, its decodes) within 5 s, so that the next input starts from a quiet downloader.
enum LoopbackResponseHarness {
    static var target: FuzzTarget {
        FuzzTarget(
            name: "http-loopback",
            summary: "Raw HTTP responses from a loopback server to a real ImageDownloader",
            maxLength: 8 << 10,
            // libFuzzer's leak check after each input would race the downloader's threads, which release a
            // download's last objects (closures holding `Data`, whose storage reference LeakSanitizer cannot see
            // through its tag bits) just after the download completes; the check at exit, and the release check
            // below, remain.
            flags: ["-detect_leaks=0"],
            run: run
        )
    }

    /// The longest a download may take before the harness calls it a hang.
    static var completionDeadline: Double { 20 }
    /// The longest the downloader may hold on to a download after completing it.
    static var releaseDeadline: Double { 5 }

    private static let server: RawHTTPServer = {
        let server = RawHTTPServer()
        let proxy = "http://127.0.0.1:\(server.port)"
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            setenv(name, proxy, 1)
        }
        unsetenv("no_proxy")
        unsetenv("NO_PROXY")
        return server
    }()

    /// Its own executor, so that the harness can tell when its decodes are over.
    private static let executor = BoundedExecutor(width: 2)
    private static let downloader = ImageDownloader(
        config: ImageDownloaderConfig(), coder: ImageCoderRegistry.makeDefault(), executor: executor
    )

    /// The errors a download documents, and `invalidURL`, which curl's code for a redirect to a location it
    /// cannot parse maps to.
    private static let documentedFailures: Set<WebImageError.Code> = [
        .invalidDownloadStatusCode, .cacheNotModified, .invalidDownloadContentType, .invalidDownloadResponse,
        .badImageData, .unsupportedFormat, .imageTooLarge, .timedOut, .cannotConnect, .cannotFindHost,
        .connectionLost, .tlsFailure, .tooManyRedirects, .responseTooLarge, .unsupportedScheme, .invalidURL,
        .badServerResponse,
    ]

    /// Counts the completions of one download.
    private final class Completions: Sendable {
        let count = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let url: URL

        init(url: URL) {
            self.url = url
        }

        func complete(_ failure: WebImageError?, response: ImageResponse?, bodySize: Int) {
            let number = count.add(1, ordering: .relaxed).newValue
            fuzzCheck(number == 1, "the download of \(url) completed \(number) times")
            if let failure {
                fuzzCheck(
                    documentedFailures.contains(failure.code),
                    "the download of \(url) failed with an undocumented error: \(failure)"
                )
                if failure.code == .invalidDownloadStatusCode {
                    fuzzCheck(
                        failure.statusCode.map { !(200..<300).contains($0) } ?? false,
                        "a status failure without a refused status: \(failure)"
                    )
                }
            } else {
                let status = response?.statusCode ?? -1
                fuzzCheck((200..<300).contains(status), "the download of \(url) succeeded with status \(status)")
                fuzzCheck(bodySize > 0, "the download of \(url) succeeded with an empty body")
                fuzzCheck(
                    bodySize <= ImageDownloaderConfig().maxResponseSize,
                    "the download of \(url) succeeded with \(bodySize) bytes"
                )
            }
            done.signal()
        }
    }

    /// Downloads so far, to tell the URLs apart.
    private static let downloads = Atomic<Int>(0)

    static func run(_ data: Data) {
        server.respond(with: Array(data))
        var random = FuzzRandom(seed: data)
        let number = downloads.add(1, ordering: .relaxed).newValue
        let url = URL(string: "http://127.0.0.1:\(server.port)/\(number)/image.png")!
        var context = ImageContext()
        let isConditional = Int.random(in: 0..<4, using: &random) == 0
        if isConditional {
            context.revalidation = ImageRevalidation(entityTag: "\"fuzz\"", lastModified: "Tue, 25 Nov 2025 00:00:00 GMT")
        }
        let completions = Completions(url: url)
        let token: any ImageLoadToken
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            token = downloader.downloadData(url: url, context: context) { result in
                switch result {
                case .success(let loaded): completions.complete(nil, response: loaded.response, bodySize: loaded.data.count)
                case .failure(let error): completions.complete(error, response: nil, bodySize: 0)
                }
            }
        default:
            // Progressive loading decodes partial images as the body arrives, for callers with a progress handler.
            let progressive = Bool.random(using: &random)
            let options: ImageOptions = progressive ? [.progressiveLoad] : []
            let ignoreProgress: ImageLoadProgressHandler = { _ in }
            let progress = progressive ? ignoreProgress : nil
            token = downloader.downloadImage(url: url, options: options, context: context, progress: progress) { result in
                switch result {
                case .success(let loaded): completions.complete(nil, response: loaded.response, bodySize: loaded.data.count)
                case .failure(let error): completions.complete(error, response: nil, bodySize: 0)
                }
            }
        }
        let finished = completions.done.wait(timeout: .now() + completionDeadline) == .success
        fuzzCheck(finished, "the download of \(url) did not complete within \(completionDeadline) s")
        withExtendedLifetime(token) {}
        waitUntilQuiet(after: url)
    }

    /// Waits until the downloader holds no download, curl no transfer context and the executor no work.
    private static func waitUntilQuiet(after url: URL) {
        let deadline = Date().addingTimeInterval(releaseDeadline)
        while true {
            let downloads = downloader.currentDownloadCount
            let contexts = downloader.liveCounters?.contexts ?? 0
            let decodes = executor.runningCount + executor.waitingCount
            if downloads == 0, contexts == 0, decodes == 0 { return }
            fuzzCheck(
                Date() < deadline,
                "\(releaseDeadline) s after the download of \(url) completed, the downloader still holds \(downloads) downloads, \(contexts) transfer contexts and \(decodes) decodes"
            )
            usleep(200)
        }
    }
}
