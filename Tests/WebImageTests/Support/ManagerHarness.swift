import CoreMetrics
import Foundation
import Logging
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// A manager over a cache in its own temporary directory and its own downloader, for one test.
final class ManagerHarness: Sendable {
    let directory: URL
    let cache: ImageCache
    let downloader: ImageDownloader
    let manager: ImageManager
    let clock: TestClock

    init(
        loader: (any ImageLoading)? = nil, failedURLLifetime: Duration = .seconds(600),
        downloaderConfig: ImageDownloaderConfig = ImageDownloaderConfig(), logger: Logger? = nil,
        metricsFactory: any MetricsFactory = NOOPMetricsHandler.instance, executor: BoundedExecutor = .decoding
    ) {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("manager-\(UUID().uuidString)")
        let registry = ImageCoderRegistry.makeDefault()
        cache = ImageCache(namespace: "manager", root: directory, coder: registry, metricsFactory: metricsFactory)
        downloader = ImageDownloader(config: downloaderConfig, coder: registry, executor: executor, metricsFactory: metricsFactory)
        clock = TestClock()
        let clock = clock
        manager = ImageManager(
            cache: cache,
            loader: loader ?? ImageLoaders([DataURLImageLoader(coder: registry), downloader]),
            failedURLLifetime: failedURLLifetime,
            now: { clock.now },
            executor: executor,
            coder: registry,
            logger: logger,
            metricsFactory: metricsFactory
        )
    }

    deinit {
        downloader.invalidate()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Loads `url` and returns its final result (waiting at most 20 s); records an issue when the completion
    /// ran more than once with a final result.
    func load(_ url: URL?, options: ImageOptions = [], context: ImageContext = ImageContext()) async -> Result<ImageLoadResult, WebImageError> {
        let all = await results(url, options: options, context: context)
        let finals = all.filter { if case .success(let loaded) = $0 { loaded.isFinal } else { true } }
        #expect(finals.count == 1, "the completion ran \(finals.count) times with a final result")
        return finals.first ?? .failure(WebImageError(.timedOut, "no final result"))
    }

    /// Loads `url`, waits for the final result (at most 20 s), then a little more, and returns every result the
    /// completion received: a second final result, or one after it, shows as an extra element.
    func results(_ url: URL?, options: ImageOptions = [], context: ImageContext = ImageContext()) async -> [Result<ImageLoadResult, WebImageError>] {
        let collector = Collector()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            collector.start(continuation)
            manager.loadImage(url: url, options: options, context: context) { result in
                collector.add(result)
            }
            // Weakly: the time limit must not keep the results (and their images) alive after the load.
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { [weak collector] in
                collector?.timeOut()
            }
        }
        try? await Task.sleep(for: .milliseconds(30))
        return collector.results
    }

    /// The results of one load, and the wait for its final one.
    private final class Collector: Sendable {
        private let state = Locked<(results: [Result<ImageLoadResult, WebImageError>], waiting: CheckedContinuation<Void, Never>?)>(([], nil))

        func start(_ continuation: CheckedContinuation<Void, Never>) {
            state.withLock { $0.waiting = continuation }
        }

        /// Records every result; the first final one ends the wait.
        func add(_ result: Result<ImageLoadResult, WebImageError>) {
            let isFinal = if case .success(let loaded) = result { loaded.isFinal } else { true }
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.results.append(result)
                return isFinal ? state.waiting.take() : nil
            }
            waiting?.resume()
        }

        func timeOut() {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiting = state.waiting.take() else { return nil }
                state.results.append(.failure(WebImageError(.timedOut, "the test gave up waiting")))
                return waiting
            }
            waiting?.resume()
        }

        var results: [Result<ImageLoadResult, WebImageError>] {
            state.withLock { $0.results }
        }
    }

    /// Waits until the IO queue has done everything queued before this call.
    func drainDisk() {
        _ = cache.diskCache.containsData(forKey: "")
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let time = Locked(Date(timeIntervalSince1970: 1_700_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(seconds: Double) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Polls `condition` until it holds, for at most 10 seconds; returns whether it held.
func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
    await waitUntil(timeout: .seconds(10), condition)
}

/// A transformer that paints the image red, counting its calls.
final class PaintTransformer: ImageTransforming {
    private let count = Locked(0)
    let transformerKey: String

    init(key: String = "PaintTransformer(red)") {
        transformerKey = key
    }

    var calls: Int { count.withLock { $0 } }

    func transform(image: Image, key: String) -> Image? {
        count.withLock { $0 += 1 }
        guard let pixels = try? PixelBuffer(width: image.width, height: image.height, color: .red) else { return nil }
        return Image(pixels: pixels, hasAlpha: false)
    }
}
