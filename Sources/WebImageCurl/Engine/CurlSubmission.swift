/// A request handed to the engine: its number, what to send, the sink that hears of it and the connection key it
/// is admitted under.
///
/// Made once, on the thread that calls ``CurlEngine/start(_:sink:)``, and passed by reference from there through the
/// inbox and the waiting queue, so that the request's many fields are copied once, into its transfer when it starts,
/// rather than at every step. Immutable.
final class CurlSubmission: Sendable {
    let id: CurlTransferID
    let request: CurlRequest
    let sink: any CurlTransferSink
    /// Worked out on the calling thread, so that the curl thread parses no URL.
    let connectionKey: CurlConnectionKey
    /// When the transfer was handed to the engine: its time in the waiting queue runs from here.
    let submitted: CurlInstant

    init(id: CurlTransferID, request: CurlRequest, sink: any CurlTransferSink, connectionKey: CurlConnectionKey) {
        self.id = id
        self.request = request
        self.sink = sink
        self.connectionKey = connectionKey
        submitted = .now
    }
}
