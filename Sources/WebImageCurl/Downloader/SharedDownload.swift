#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import WebImageCore

/// One transfer, shared by every caller of the same request: the work of a flight in the downloader's
/// ``SingleFlight`` of transfers, and the engine's sink for the transfer. It reports progress to the flight's
/// callers (with every byte so far for a progressive transfer) and ends the flight with the body, checked once for
/// the callers who have nothing of their own to run on it.
///
/// Lifecycle (``Lifecycle``): made by the first caller (``init``), given its flight before the engine starts the
/// transfer (``attach(_:)``), numbered once the engine took it (``started(_:)``), then done when the engine
/// completes it. Callers join and leave through the flight; the last to leave cancels the transfer (``abandon()``).
/// The flight ends with the transfer, so the next caller of the same request starts a new one.
final class SharedDownload: CurlTransferSink {
    typealias Flights = SingleFlight<DownloadIdentity, SharedDownload, Progress, End>

    /// A report of a transfer's progress.
    struct Progress: Sendable {
        /// Bytes so far and expected; with every byte so far for a progressive transfer (``ImageLoadProgress/receivedData``).
        let progress: ImageLoadProgress
        /// Whether the throttle lets the report out to callers who do not want the bytes.
        let isThrottled: Bool
    }

    /// What a successful transfer brought.
    struct Body: Sendable {
        var data: Data
        var response: ImageResponse
        var metrics: ImageDownloadMetrics
        var lastProgress: ImageLoadProgress
    }

    /// How a transfer ended.
    struct End: Sendable {
        /// The download that ended, which runs a caller's own response modifier and decryptor on the body.
        let download: SharedDownload
        let body: Result<Body, WebImageError>
        /// The body after the checks every caller shares, for callers with no response modifier or decryptor.
        let checked: Result<DownloadedImageData, WebImageError>
        let deliveries: CurlThreadDeliveries
    }

    private struct State {
        var lifecycle: Lifecycle<Flights.Flight>
        var throttle: DownloadProgressThrottle
    }

    let identity: DownloadIdentity
    let url: URL
    private let isConditional: Bool
    private let config: ImageDownloaderConfig
    /// Every byte so far, when the first caller asked for a progressive load.
    private let progressive: ProgressiveBody?
    private let state: Locked<State>
    /// The downloader, through which the transfer is cancelled or raised in the engine. Weak: a download does not
    /// keep its downloader alive, and once the downloader is gone its engine has completed every transfer.
    private weak let owner: ImageDownloader?
    /// The downloader's metrics: the transfer is in flight from its start until it completes.
    private let metrics: ImageMetricsRecorder?
    /// The downloader's logger, when it writes debug lines.
    private let log: Logger?

    init(
        identity: DownloadIdentity,
        url: URL,
        isConditional: Bool,
        config: ImageDownloaderConfig,
        owner: ImageDownloader,
        priority: CurlRequest.Priority,
        isProgressive: Bool,
        metrics: ImageMetricsRecorder?,
        log: Logger?
    ) {
        self.metrics = metrics
        self.log = log
        self.identity = identity
        self.url = url
        self.isConditional = isConditional
        self.config = config
        self.owner = owner
        progressive = isProgressive ? ProgressiveBody() : nil
        state = Locked(State(
            lifecycle: Lifecycle(priority: priority),
            throttle: DownloadProgressThrottle(interval: config.minimumProgressInterval)
        ))
    }

    // MARK: Lifecycle

    /// Gives the download its flight, before the engine may call it.
    func attach(_ flight: Flights.Flight) {
        state.withLock { $0.lifecycle.attach(flight) }
    }

    /// Records the engine's number for the transfer (after `start` returned): cancels it at once when every caller
    /// left before, and raises it when a caller asked for more since it was started.
    func started(_ id: CurlTransferID) {
        perform(state.withLock { $0.lifecycle.started(id) })
    }

    /// A caller that asked for `priority` joined: moves the transfer up the engine's queue when that is higher.
    func raise(to priority: CurlRequest.Priority) {
        perform(state.withLock { $0.lifecycle.raise(to: priority) })
    }

    /// Every caller left: cancels the transfer, now or as soon as the engine has numbered it.
    func abandon() {
        perform(state.withLock { $0.lifecycle.abandon() })
    }

    private func perform(_ action: Lifecycle<Flights.Flight>.Action) {
        switch action {
        case .none: break
        case .cancel(let id): owner?.cancelTransfer(id)
        case .raise(let id, let priority): owner?.raiseTransfer(id, to: priority)
        }
    }

    // MARK: CurlTransferSink (on the curl thread: record and hand off only)

    func didReceiveResponse(_ response: CurlResponse) {}

    func didReceive(bytesSoFar: Int64, expected: Int64, chunk: UnsafeRawBufferPointer) {
        let (flight, isThrottled) = state.withLock { state in
            (state.lifecycle.flight, !state.throttle.shouldReport(received: bytesSoFar, expected: expected))
        }
        let body = progressive?.append(chunk)
        guard let flight, !isThrottled || body != nil else { return }
        flight.update(Progress(
            progress: ImageLoadProgress(receivedBytes: bytesSoFar, expectedBytes: expected, receivedData: body),
            isThrottled: isThrottled
        ))
    }

    func didComplete(_ result: Result<CurlTransferResult, WebImageError>, deliveries: DeliveryBatch?) {
        let flight = state.withLock { $0.lifecycle.complete() }
        if let metrics { Self.record(result, to: metrics) }
        if let log { Self.log(result, of: url, to: log) }
        let batch = CurlThreadDeliveries(batch: deliveries)
        switch result {
        case .failure(let error):
            flight?.finish(End(download: self, body: .failure(error), checked: .failure(error), deliveries: batch))
        case .success(let transfer):
            let response = ImageResponse(
                url: transfer.response.url == identity.url ? url : URL(string: transfer.response.url) ?? url,
                statusCode: transfer.response.statusCode,
                headers: transfer.response.headers
            )
            let body = Body(
                data: transfer.body,
                response: response,
                metrics: ImageDownloadMetrics(transfer.metrics),
                lastProgress: ImageLoadProgress(
                    receivedBytes: Int64(transfer.body.count),
                    expectedBytes: transfer.response.expectedContentLength ?? Int64(transfer.body.count)
                )
            )
            flight?.finish(End(download: self, body: .success(body), checked: checked(body), deliveries: batch))
        }
    }

    /// Reports a finished transfer: no longer in flight, and when it succeeded its bytes and its queue and
    /// download times.
    private static func record(_ result: Result<CurlTransferResult, WebImageError>, to metrics: ImageMetricsRecorder) {
        metrics.transfersInFlight.decrement()
        guard case .success(let transfer) = result else { return }
        metrics.downloadedBytes.increment(by: transfer.body.count)
        metrics.recordQueueWait(transfer.metrics.queued)
        metrics.recordDownload(transfer.metrics.total)
    }

    /// Writes the transfer's end as a debug line: its status, bytes and times, or its error.
    private static func log(_ result: Result<CurlTransferResult, WebImageError>, of url: URL, to log: Logger) {
        switch result {
        case .success(let transfer):
            log.debug("transfer finished", metadata: [
                "url": LogMetadata.url(url),
                "status": "\(transfer.response.statusCode)",
                "bytes": "\(transfer.body.count)",
                "queued_ms": LogMetadata.milliseconds(transfer.metrics.queued),
                "duration_ms": LogMetadata.milliseconds(transfer.metrics.total),
                "http_version": "\(transfer.metrics.httpVersion ?? "none")",
            ])
        case .failure(let error):
            log.debug("transfer failed", metadata: [
                "url": LogMetadata.url(url), "error_code": "\(error.code)", "error": "\(CredentialRedaction.redacting(error.message))",
            ])
        }
    }

    /// The response checks and the empty-body check, which every caller without a response modifier or
    /// decryptor of its own shares.
    private func checked(_ body: Body) -> Result<DownloadedImageData, WebImageError> {
        if let failure = DownloadResponseCheck.failure(for: body.response, config: config, isConditional: isConditional) {
            return .failure(failure)
        }
        guard !body.data.isEmpty else {
            return .failure(WebImageError(.badImageData, "\(url.absoluteString) sent an empty body"))
        }
        return .success(DownloadedImageData(data: body.data, response: body.response, metrics: body.metrics))
    }

    /// The checks again for a caller with a response modifier or a decryptor of its own, which run first or
    /// after; on the executor, as they are user code.
    func processed(
        _ body: Body, responseModifier: ImageResponseModifier?, decryptor: ImageDataDecryptor?
    ) -> Result<DownloadedImageData, WebImageError> {
        var response = body.response
        if let responseModifier {
            guard let modified = responseModifier(response) else {
                return .failure(WebImageError(.invalidDownloadResponse, "the response modifier refused the response of \(url.absoluteString)"))
            }
            response = modified
        }
        if let failure = DownloadResponseCheck.failure(for: response, config: config, isConditional: isConditional) {
            return .failure(failure)
        }
        do throws(WebImageError) {
            let data = try DownloadedImageData(data: body.data, response: response, metrics: body.metrics)
                .decrypted(by: decryptor, what: url.absoluteString)
            guard !data.data.isEmpty else {
                return .failure(WebImageError(.badImageData, "\(url.absoluteString) sent an empty body"))
            }
            return .success(data)
        } catch {
            return .failure(error)
        }
    }
}

/// The curl thread's gathering of completions, carried with the end of a transfer to its callers.
///
/// `@unchecked Sendable`: a flight's callers receive its end during ``SingleFlight/Flight/finish(_:)``, which the
/// download calls on the curl thread, so the batch is used only on the thread that owns it, as it must be.
struct CurlThreadDeliveries: @unchecked Sendable {
    let batch: DeliveryBatch?
}
