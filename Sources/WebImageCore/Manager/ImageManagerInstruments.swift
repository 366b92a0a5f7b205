#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Where a manager's events go: the streams of ``ImageManager/events(bufferingNewest:)`` and the manager's logger.
///
/// Sending is nearly free when nothing listens: one atomic load for the streams and a level compared for the
/// logger (its level is read once, when the manager is made), before the event is even made. Thread-safe.
final class ImageManagerInstruments: Sendable {
    let streams = ImageManagerEventStreams()
    private let logger: Logger?
    /// Whether the logger writes debug lines, and warnings: read once, and kept as flags so that asking costs no
    /// copy of the logger.
    private let logsDebug: Bool
    private let logsWarnings: Bool

    init(logger: Logger?) {
        self.logger = logger
        logsDebug = logger.map { $0.logLevel <= .debug } ?? false
        logsWarnings = logger.map { $0.logLevel <= .warning } ?? false
    }

    /// Whether an event of `level` (`.debug` or `.warning`, the two the manager uses) goes anywhere: a stream is
    /// open, or the logger writes that level.
    @inline(__always)
    func isActive(at level: Logger.Level = .debug) -> Bool {
        (level == .debug ? logsDebug : logsWarnings) || streams.isActive
    }

    /// Sends the event to the open streams and logs it at `level`; makes it only when something listens.
    func send(_ event: @autoclosure () -> ImageManagerEvent, level: Logger.Level = .debug) {
        guard isActive(at: level) else { return }
        let event = event()
        streams.send(event)
        if level == .debug ? logsDebug : logsWarnings, let logger { Self.log(event, at: level, to: logger) }
    }

    /// Ends every stream, for a manager that goes away.
    func finishAll() {
        streams.finishAll()
    }

    // MARK: Log lines

    /// One line per event, with structured metadata: URLs and keys with their credentials redacted, never a header.
    private static func log(_ event: ImageManagerEvent, at level: Logger.Level, to logger: Logger) {
        switch event {
        case .loadStarted(let url, let key):
            logger.log(level: level, "load started", metadata: ["url": LogMetadata.url(url), "key": LogMetadata.key(key)])
        case .cacheHit(let url, let key, let cacheType):
            logger.log(level: level, "cache hit", metadata: ["url": LogMetadata.url(url), "key": LogMetadata.key(key), "cache_type": "\(cacheType)"])
        case .cacheMiss(let url, let key):
            logger.log(level: level, "cache miss", metadata: ["url": LogMetadata.url(url), "key": LogMetadata.key(key)])
        case .downloadStarted(let url):
            logger.log(level: level, "download started", metadata: ["url": LogMetadata.url(url)])
        case .downloadFinished(let url, let metrics, let error):
            var metadata: Logger.Metadata = ["url": LogMetadata.url(url)]
            if let metrics {
                metadata["duration_ms"] = LogMetadata.milliseconds(metrics.total)
                metadata["bytes"] = "\(metrics.bytesReceived)"
                metadata["queued_ms"] = LogMetadata.milliseconds(metrics.queued)
            }
            if let error { metadata["error_code"] = "\(error.code)" }
            logger.log(level: level, error == nil ? "download finished" : "download failed", metadata: metadata)
        case .decoded(let url, let pixelSize, let duration):
            logger.log(level: level, "decoded", metadata: [
                "url": LogMetadata.url(url), "pixels": "\(pixelSize.width)x\(pixelSize.height)", "duration_ms": LogMetadata.milliseconds(duration),
            ])
        case .stored(let url, let key, let cacheType):
            logger.log(level: level, "stored", metadata: ["url": LogMetadata.url(url), "key": LogMetadata.key(key), "cache_type": "\(cacheType)"])
        case .storeFailed(let failure):
            logger.log(level: level, "store failed", metadata: [
                "url": LogMetadata.url(failure.url), "key": LogMetadata.key(failure.key), "cache_type": "\(failure.cacheType)",
                "error_code": "\(failure.error.code)", "error": "\(failure.error.message)",
            ])
        case .loadFinished(let report):
            log(report, as: "load", at: level, to: logger)
        case .dataLoadStarted(let url, let key):
            logger.log(level: level, "data load started", metadata: ["url": LogMetadata.url(url), "key": LogMetadata.key(key)])
        case .dataLoadFinished(let report):
            log(report, as: "data load", at: level, to: logger)
        }
    }

    /// The line of a finished load or data load: `<kind> finished` with where the result came from, or
    /// `<kind> failed` with the error.
    private static func log(_ report: ImageLoadReport, as kind: String, at level: Logger.Level, to logger: Logger) {
        var metadata: Logger.Metadata = ["url": LogMetadata.url(report.url), "key": LogMetadata.key(report.key)]
        if let metrics = report.metrics { metadata["duration_ms"] = LogMetadata.milliseconds(metrics.total) }
        switch report.result {
        case .success(let cacheType):
            metadata["cache_type"] = "\(cacheType)"
            logger.log(level: level, "\(kind) finished", metadata: metadata)
        case .failure(let error):
            metadata["error_code"] = "\(error.code)"
            metadata["error"] = "\(CredentialRedaction.redacting(error.message))"
            logger.log(level: level, "\(kind) failed", metadata: metadata)
        }
    }
}
