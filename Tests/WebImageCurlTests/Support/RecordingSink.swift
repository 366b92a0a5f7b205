import Foundation
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// A sink that records what the engine reports, for assertions; counts completions to prove exactly-once delivery.
final class RecordingSink: CurlTransferSink {
    struct Events {
        var response: CurlResponse?
        var responseCount = 0
        var chunkBytes: Int64 = 0
        var lastProgress: (bytesSoFar: Int64, expected: Int64)?
        var completions: [Result<CurlTransferResult, WebImageError>] = []
        var eventsAfterCompletion = 0
        /// When the first completion came, on the engine's thread: timing measured there does not include the
        /// test's own wait to be scheduled again.
        var completedAt: ContinuousClock.Instant?
        /// When the last body chunk came, on the engine's thread.
        var lastChunkAt: ContinuousClock.Instant?
    }

    let name: String
    private let events = Locked(Events())
    private let order: CompletionOrder?

    init(name: String = "", order: CompletionOrder? = nil) {
        self.name = name
        self.order = order
    }

    func didReceiveResponse(_ response: CurlResponse) {
        events.withLock { events in
            if !events.completions.isEmpty { events.eventsAfterCompletion += 1 }
            events.response = response
            events.responseCount += 1
        }
    }

    func didReceive(bytesSoFar: Int64, expected: Int64, chunk: UnsafeRawBufferPointer) {
        let now = ContinuousClock.now
        events.withLock { events in
            events.lastChunkAt = now
            if !events.completions.isEmpty { events.eventsAfterCompletion += 1 }
            events.chunkBytes += Int64(chunk.count)
            events.lastProgress = (bytesSoFar, expected)
        }
    }

    func didComplete(_ result: Result<CurlTransferResult, WebImageError>, deliveries: DeliveryBatch?) {
        let now = ContinuousClock.now
        events.withLock {
            $0.completions.append(result)
            if $0.completedAt == nil { $0.completedAt = now }
        }
        order?.append(name)
    }

    var snapshot: Events { events.withLock { $0 } }
    var completionCount: Int { events.withLock { $0.completions.count } }

    /// The first completion's result, nil if none yet.
    var result: Result<CurlTransferResult, WebImageError>? { events.withLock { $0.completions.first } }

    /// The error code of the first completion, nil if none or a success.
    var errorCode: WebImageError.Code? {
        guard case .failure(let error)? = result else { return nil }
        return error.code
    }

    var errorMessage: String? {
        guard case .failure(let error)? = result else { return nil }
        return error.message
    }

    /// Waits, at most `timeout`, for the first completion; returns whether it came.
    @discardableResult
    func waitForCompletion(timeout: Duration = .seconds(30)) async -> Bool {
        await waitUntil(timeout: timeout) { self.completionCount > 0 }
    }
}

extension CurlRequest {
    /// A request whose timeouts (two minutes) cannot fire before a test cancels it, however slowly the test's
    /// own tasks are scheduled while the rest of the suite runs.
    static func patient(url: String) -> CurlRequest {
        var request = CurlRequest(url: url)
        request.totalTimeout = .seconds(120)
        request.stallTimeout = .seconds(120)
        request.connectTimeout = .seconds(120)
        return request
    }
}

/// The names of sinks in the order they completed.
final class CompletionOrder: Sendable {
    private let names = Locked<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}
