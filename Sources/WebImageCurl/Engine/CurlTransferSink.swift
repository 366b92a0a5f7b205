import WebImageCore

/// Receives the events of one transfer.
///
/// Threading: every method is called on the engine's curl thread (or, for a transfer started after the engine was
/// invalidated, on the thread that called ``CurlEngine/start(_:sink:)``), one call at a time. Implementations must do
/// only O(1), non-blocking work: record, or hand the event to another queue. They must not block, take a contended
/// lock or call back into the engine synchronously expecting a result.
///
/// ``didComplete(_:deliveries:)`` is called exactly once per started transfer, and nothing is called after it. A cancelled
/// transfer completes with a `cancelled` error.
package protocol CurlTransferSink: AnyObject, Sendable {
    /// The last response's status and headers are known (called once, before the first body chunk, or at completion
    /// for an empty body). Not called for transfers that fail before a response.
    func didReceiveResponse(_ response: CurlResponse)

    /// A chunk of the body arrived.
    ///
    /// - Parameters:
    ///   - bytesSoFar: Body bytes received so far, this chunk included.
    ///   - expected: The announced length, or -1 when unknown.
    ///   - chunk: The new bytes; valid only during the call.
    func didReceive(bytesSoFar: Int64, expected: Int64, chunk: UnsafeRawBufferPointer)

    /// The transfer finished, failed or was cancelled. Called exactly once.
    ///
    /// - Parameters:
    ///   - result: The body and response, or why the transfer failed.
    ///   - deliveries: On the curl thread, where completions bound for the global concurrent queue are gathered;
    ///     the engine sends them shortly (see ``CurlEngine/Configuration/deliveryWindow``). Nil when the sink is
    ///     called on another thread, which dispatches them itself.
    func didComplete(_ result: Result<CurlTransferResult, WebImageError>, deliveries: DeliveryBatch?)
}
