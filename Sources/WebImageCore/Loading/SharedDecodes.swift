import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Core's decoding of the bytes a data loader delivers: one request and one decode per distinct load, shared by
/// every caller that asks for it while it runs, with the context's decryptor applied first and partial images
/// decoded as the bytes arrive for progressive loads. What turns an ``ImageDataLoading`` into an
/// ``ImageLoading``: the downloader, the `data:` and `file:` loaders and ``DecodingImageLoader`` all decode here.
///
/// Callers share a load when they ask for the same URL with the same loading options and priority, the same
/// decode options and the same coder (the default, or one coder object that their contexts name). A caller whose
/// context brings something of its own to run (a request or response modifier, a decryptor, a coder value,
/// validators to revalidate, extension values) loads alone. Joining a load that is being decoded gets its result;
/// asking after it has ended starts a new one.
///
/// Thread-safe. Each caller completes exactly once on its context's callback queue: with the image, the error, or
/// `cancelled` when its token is cancelled first. The request and the decode stop when the last caller cancels.
package final class SharedDecodes: Sendable {
    /// What callers share a load by.
    struct Key: Hashable, Sendable {
        let url: String
        /// The options the loader and the decoder read, priority included.
        let options: ImageOptions
        let decodeOptions: ImageDecodeOptions
        /// The coder object of the callers' context, when they brought one; valid while they keep it, as they do
        /// until they complete.
        let coder: ObjectIdentifier?
        /// A number of its own for a caller that shares with no one.
        let sole: UInt64?
        /// What the loader says shapes its requests beyond the context (a version of a downloader's headers).
        let partition: UInt64
        /// Computed once: the key is hashed at least twice (added and removed).
        private let hash: Int

        init(
            url: String, options: ImageOptions, decodeOptions: ImageDecodeOptions, coder: ObjectIdentifier?, sole: UInt64?,
            partition: UInt64 = 0
        ) {
            self.url = url
            self.options = options
            self.decodeOptions = decodeOptions
            self.coder = coder
            self.sole = sole
            self.partition = partition
            var hasher = Hasher()
            hasher.combine(url)
            hasher.combine(options.rawValue)
            hasher.combine(decodeOptions)
            hasher.combine(coder)
            hasher.combine(sole)
            hasher.combine(partition)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        /// The options that do not change what is loaded or how it is decoded: what the manager alone reads.
        static let managerOnlyOptions: ImageOptions = [
            .retryFailed, .delayPlaceholder, .queryMemoryData, .queryMemoryDataSync, .queryDiskDataSync,
            .fromCacheOnly, .fromLoaderOnly, .forceTransition, .waitStoreCache, .avoidAutoSetImage,
            .avoidAutoCancelImage, .waitTransition, .transformAnimatedImage, .refreshCached,
        ]
    }

    /// What the callers of one load share besides its result: the last progress report, which a caller's
    /// completion follows, and the data loader's token, cancelled once the load is over.
    final class Work: Sendable {
        let lastProgress = Locked<ImageLoadProgress?>(nil)
        private let loaderToken = Locked<(token: (any ImageLoadToken)?, isReleased: Bool)>((nil, false))

        /// Keeps the data loader's token until ``releaseLoader()``; cancels it at once when that came first.
        func setLoaderToken(_ token: any ImageLoadToken) {
            let released = loaderToken.withLock { state in
                if !state.isReleased { state.token = token }
                return state.isReleased
            }
            if released { token.cancel() }
        }

        /// The load is over: cancels the data loader's token, so that the loader lets go of anything it held for
        /// the decode (cancelling a finished load does nothing else).
        func releaseLoader() {
            let token = loaderToken.withLock { state in
                state.isReleased = true
                return state.token.take()
            }
            token?.cancel()
        }
    }

    /// A load's end: the result, the last progress report (which a listening caller gets just before it), and
    /// whether it is delivered from a global-queue thread that holds nothing of the library's.
    struct Outcome: Sendable {
        let result: Result<DownloadedImage, WebImageError>
        let lastProgress: ImageLoadProgress?
        let onFreeGlobalThread: Bool
    }

    typealias Flights = SingleFlight<Key, Work, ImageLoadProgress, Outcome>

    /// Decodes unless a caller's context names another coder.
    package let coder: any ImageCoding
    /// Where decoding and partial decoding run.
    package let executor: BoundedExecutor
    /// The least time between the starts of two partial decodes of a progressive load, in seconds.
    package let progressiveInterval: Double
    private let flights = Flights()
    private let soleNumbers = Atomic<UInt64>(0)

    package init(coder: any ImageCoding, executor: BoundedExecutor, progressiveInterval: Double = 0.1) {
        self.coder = coder
        self.executor = executor
        self.progressiveInterval = progressiveInterval
    }

    /// The number of loads running (requesting or decoding).
    package var count: Int { flights.count }

    /// Loads `url` through `loader` and decodes it, sharing both with the other callers of the same load (see
    /// ``SharedDecodes``). Progress comes as the loader reports it, with partial images when the options ask for a
    /// progressive load; none comes after the completion.
    ///
    /// - Parameter partition: Callers of different partitions never share: a loader whose requests change over
    ///   time (a downloader's headers) passes a new one after each change.
    /// - Returns: This caller's token: cancelling it completes the caller at once with `cancelled`.
    package func requestImage(
        from loader: any ImageDataLoading,
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        partition: UInt64 = 0,
        completion: @escaping DownloadedImageHandler
    ) -> any ImageLoadToken {
        let latch = CompletionLatch<DownloadedImage>(
            callbackQueue: context.callbackQueue ?? .default,
            makeCancellationError: { WebImageError(.cancelled, "the load of \(Self.name(of: url)) was cancelled") },
            handler: completion
        )
        requestImage(from: loader, url: url, options: options, context: context, progress: progress, partition: partition, latch: latch)
        return LatchLoadToken(latch: latch)
    }

    /// ``requestImage(from:url:options:context:progress:completion:)`` for a caller whose latch is made already
    /// (on the context's callback queue), so that a loader that wraps the load in a token of its own completes
    /// the caller from the decoding thread, with no further thread switch.
    package func requestImage(
        from loader: any ImageDataLoading,
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        progress: ImageLoadProgressHandler?,
        partition: UInt64 = 0,
        latch: CompletionLatch<DownloadedImage>
    ) {
        let callbackQueue = context.callbackQueue ?? .default
        let coder = context.imageCoder ?? self.coder
        // A `data:` URL carries no `@2x` in a name of its own.
        let decodeOptions = context.decodeOptions(for: options, cacheKey: url.scheme == "data" ? nil : url.absoluteString)
        let key = Key(
            url: url.absoluteString,
            options: options.subtracting(Key.managerOnlyOptions),
            decodeOptions: decodeOptions,
            coder: context.imageCoder.flatMap(Self.objectIdentity),
            sole: Self.loadsAlone(context) ? soleNumbers.add(1, ordering: .relaxed).newValue : nil,
            partition: partition
        )
        let member = Self.member(latch: latch, callbackQueue: callbackQueue, progress: progress)
        let ticket = flights.join(key, member, make: { Work() }) { flight in
            start(flight, loader: loader, url: url, options: options, context: context, coder: coder, decodeOptions: decodeOptions)
        }
        latch.onCancel { [flights] in flights.leave(ticket) }
    }

    /// A caller as its flight keeps it: progress on its callback queue while it waits, then its completion, with
    /// the last report just before it in the same block when it listens.
    private static func member(
        latch: CompletionLatch<DownloadedImage>,
        callbackQueue: CallbackQueue,
        progress: ImageLoadProgressHandler?
    ) -> Flights.Member {
        var listen: Flights.Listener?
        if let progress {
            listen = { report in
                callbackQueue.execute(duringCall: false) {
                    guard !latch.isDone else { return }
                    progress(report)
                }
            }
        }
        return Flights.Member(listen: listen) { outcome in
            var last: (@Sendable () -> Void)?
            if let progress, let report = outcome.lastProgress {
                last = { progress(report) }
            }
            latch.finish(outcome.result, onFreeGlobalThread: outcome.onFreeGlobalThread, before: last)
        }
    }

    /// Requests the bytes with the inline callback queue and without the decryptor, which runs here; decodes them
    /// on the executor, and partial images as they come for a progressive load.
    private func start(
        _ flight: Flights.Flight,
        loader: any ImageDataLoading,
        url: URL,
        options: ImageOptions,
        context: ImageContext,
        coder: any ImageCoding,
        decodeOptions: ImageDecodeOptions
    ) {
        let work = flight.work
        let progressive = options.contains(.progressiveLoad)
            ? ProgressiveDecode(coder: coder, options: decodeOptions, executor: executor, interval: progressiveInterval) { image in
                var report = work.lastProgress.withLock { $0 } ?? ImageLoadProgress(receivedBytes: 0, expectedBytes: -1)
                report.partialImage = image
                flight.update(report)
            }
            : nil
        var loaderContext = context
        loaderContext.callbackQueue = .inline
        loaderContext.decryptor = nil
        let decryptor = context.decryptor
        let executor = executor
        let token = loader.requestData(url: url, options: options, context: loaderContext, progress: { report in
            var plain = report
            plain.receivedData = nil
            work.lastProgress.withLock { $0 = plain }
            flight.update(plain)
            if let progressive, let body = report.receivedData { progressive.received(body) }
        }) { result in
            progressive?.finish()
            let lastProgress = work.lastProgress.withLock { $0 }
            switch result {
            case .failure(let error):
                flight.finish(Outcome(result: .failure(error), lastProgress: lastProgress, onFreeGlobalThread: false))
                work.releaseLoader()
            case .success(let body):
                executor.submitWithFollowUp {
                    guard flight.isWanted else {
                        work.releaseLoader()
                        return nil
                    }
                    let result = Self.decode(body, what: Self.name(of: url), decryptor: decryptor, coder: coder, options: decodeOptions)
                    return {
                        flight.finish(Outcome(result: result, lastProgress: lastProgress, onFreeGlobalThread: true))
                        work.releaseLoader()
                    }
                }
            }
        }
        work.setLoaderToken(token)
        flight.onCancel {
            work.releaseLoader()
            progressive?.finish()
        }
    }

    /// The decryptor, the empty-body check and the decode; `what` names the bytes in messages.
    static func decode(
        _ loaded: DownloadedImageData,
        what: String,
        decryptor: ImageDataDecryptor?,
        coder: any ImageCoding,
        options: ImageDecodeOptions
    ) -> Result<DownloadedImage, WebImageError> {
        let body: DownloadedImageData
        do throws(WebImageError) {
            body = try loaded.decrypted(by: decryptor, what: what)
        } catch {
            return .failure(error)
        }
        guard !body.data.isEmpty else {
            return .failure(WebImageError(.badImageData, "the data of \(what) is empty"))
        }
        do throws(WebImageError) {
            let started = ContinuousClock.now
            let image = try coder.decodeForLoad(body.data, options: options)
            return .success(DownloadedImage(
                image: image, data: body.data, response: body.response, metrics: body.metrics,
                decodeDuration: ContinuousClock.now - started
            ))
        } catch {
            // Bytes no coder recognises are bad image data to a load, as SDWebImage reports them.
            var failure = WebImageError(error.code, "\(error.message) (\(what))", statusCode: error.statusCode)
            if error.code == .unsupportedFormat {
                failure.code = .badImageData
                failure.coderCode = .unsupportedFormat
            }
            return .failure(failure)
        }
    }

    /// How messages name `url`: a `data:` URL, whose text is its payload, by its kind alone.
    static func name(of url: URL) -> String {
        url.scheme?.lowercased() == "data" ? "a data URL" : url.absoluteString
    }

    /// Whether the context brings something of its own to run on the load, which another caller's load would
    /// not run.
    package static func loadsAlone(_ context: ImageContext) -> Bool {
        context.requestModifier != nil || context.responseModifier != nil || context.decryptor != nil
            || context.revalidation != nil || !context.values.isEmpty
            || (context.imageCoder.map { objectIdentity($0) == nil } ?? false)
    }

    /// The identity of a coder object; nil for a coder value, which cannot be told apart from another.
    private static func objectIdentity(_ coder: any ImageCoding) -> ObjectIdentifier? {
        type(of: coder) is AnyObject.Type ? ObjectIdentifier(coder as AnyObject) : nil
    }
}
