import Dispatch
import ServiceLifecycle
import WebImageCore
import WebImageCurl

/// Runs an image manager as a swift-service-lifecycle `Service`: on graceful shutdown it stops taking loads, lets
/// the running ones finish for a grace period, cancels the rest, writes what the disk cache still holds back, and
/// stops the downloader.
///
/// ```swift
/// let service = ImageLoadingService(manager: manager)   // 10 s of grace by default
/// let group = ServiceGroup(
///     services: [httpServer, service],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// ``run()`` waits for graceful shutdown, then:
/// 1. ``WebImageCore/ImageManager/beginShutdown()``: every load started from then on, memory hits included, fails
///    with `shuttingDown` (3015) during its call;
/// 2. ``WebImageCore/ImageManager/waitForRunningLoads(timeout:)`` for ``gracePeriod``, then
///    ``WebImageCore/ImageManager/cancelAll()``: what still runs completes with `cancelled`;
/// 3. ``WebImageCore/ImageCache/flush()`` on ``cache``: every disk write and removal asked for so far, the stores
///    of the loads just finished included, is on disk;
/// 4. ``WebImageCurl/ImageDownloader/invalidate()`` on ``downloader``: transfers still open are closed and its
///    thread stops.
///
/// When the task running ``run()`` is cancelled instead (the group gave up waiting, or no graceful shutdown was
/// asked for), the same steps run without the grace period: the loads are cancelled at once. A cancellation that
/// comes during the grace period ends it. Either way ``run()`` returns once the steps are done; it never throws.
///
/// A value type holding references: copies share the manager, the cache and the downloader.
public struct ImageLoadingService: Service {
    /// How long in-flight loads may go on after graceful shutdown begins when the service is made without a grace
    /// period: 10 seconds, below the 30 seconds most process supervisors wait between a termination signal and
    /// killing the process.
    public static let defaultGracePeriod: Duration = .seconds(10)

    /// The manager whose loads are stopped.
    public let manager: ImageManager
    /// The cache flushed once the loads have ended; nil flushes nothing.
    public let cache: ImageCache?
    /// The downloader invalidated last; nil invalidates nothing.
    public let downloader: ImageDownloader?
    /// How long loads running when graceful shutdown begins may go on before they are cancelled.
    public let gracePeriod: Duration

    /// A service over `manager`.
    ///
    /// - Parameters:
    ///   - manager: The manager to stop.
    ///   - cache: The cache to flush; by default the manager's ``WebImageCore/ImageManager/cache`` when it is an
    ///     ``WebImageCore/ImageCache``. Pass the cache behind a custom `ImageCaching` here.
    ///   - downloader: The downloader to invalidate; by default the manager's ``WebImageCore/ImageManager/loader``
    ///     when it is an ``WebImageCurl/ImageDownloader``, or the first one among the loaders of an
    ///     ``WebImageCore/ImageLoaders``. Pass one to stop a downloader hidden behind another loader; do not let
    ///     the service invalidate a downloader that other managers still use.
    ///   - gracePeriod: See ``gracePeriod``; ``defaultGracePeriod`` (10 seconds) by default. Zero or less
    ///     cancels the running loads at once.
    public init(
        manager: ImageManager,
        cache: ImageCache? = nil,
        downloader: ImageDownloader? = nil,
        gracePeriod: Duration = ImageLoadingService.defaultGracePeriod
    ) {
        self.manager = manager
        self.cache = cache ?? (manager.cache as? ImageCache)
        self.downloader = downloader ?? Self.downloader(in: manager.loader)
        self.gracePeriod = gracePeriod
    }

    /// Waits for graceful shutdown (or the task's cancellation), then stops the manager's loads, flushes the cache
    /// and invalidates the downloader, as the type's documentation says; returns when done.
    ///
    /// Runs on the global concurrent executor while it waits; blocks no thread of Swift's cooperative pool (the
    /// downloader's thread is joined on a thread of its own).
    public func run() async {
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            // Only the task's cancellation ends the wait with an error.
            graceful = false
        }
        await stop(waitingForLoads: graceful)
    }

    /// The steps of a shutdown; with `waitingForLoads`, the running loads get the grace period first.
    func stop(waitingForLoads: Bool) async {
        manager.beginShutdown()
        if waitingForLoads, gracePeriod > .zero {
            _ = await manager.waitForRunningLoads(timeout: gracePeriod)
        }
        manager.cancelAll()
        if let cache {
            await cache.flush()
        }
        if let downloader {
            // `invalidate()` joins the curl thread: it waits, so on a thread of its own rather than the pool's.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    downloader.invalidate()
                    continuation.resume()
                }
            }
        }
    }

    /// `loader` as an `ImageDownloader`, or the first one among the loaders of an ``WebImageCore/ImageLoaders``.
    private static func downloader(in loader: any ImageLoading) -> ImageDownloader? {
        if let downloader = loader as? ImageDownloader { return downloader }
        guard let loaders = loader as? ImageLoaders else { return nil }
        return loaders.loaders.lazy.compactMap { downloader(in: $0) }.first
    }
}
