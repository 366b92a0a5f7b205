/// A request handed to the engine: its number, what to send and the sink that hears of it.
///
/// Made once, on the thread that calls ``CurlEngine/start(_:sink:)``, and passed by reference from there through the
/// inbox and the waiting queue, so that the request's many fields are copied once, into its transfer when it starts,
/// rather than at every step. Immutable.
final class CurlSubmission: Sendable {
    let id: CurlTransferID
    let request: CurlRequest
    let sink: any CurlTransferSink

    init(id: CurlTransferID, request: CurlRequest, sink: any CurlTransferSink) {
        self.id = id
        self.request = request
        self.sink = sink
    }
}
