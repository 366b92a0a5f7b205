import Testing
@testable import WebImageCurl

extension CurlEngine {
    /// Runs `request` and waits for its completion, recording an issue when it does not come within `timeout`.
    func run(_ request: CurlRequest, timeout: Duration) async -> RecordingSink {
        let sink = RecordingSink()
        start(request, sink: sink)
        let completed = await sink.waitForCompletion(timeout: timeout)
        #expect(completed, "the transfer of \(request.url) did not complete within \(timeout)")
        return sink
    }
}
