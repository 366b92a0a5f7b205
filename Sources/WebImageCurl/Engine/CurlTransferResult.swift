import Foundation

/// A finished transfer: the body, the last response and the metrics.
///
/// Any HTTP status counts as a finished transfer; deciding which statuses are acceptable is the caller's job.
package struct CurlTransferResult: Sendable {
    /// The body as received (curl decodes gzip, deflate and brotli content encodings).
    package var body: Data
    /// The last response, after redirects.
    package var response: CurlResponse
    /// Timings, byte count, HTTP version, connection reuse.
    package var metrics: CurlTransferMetrics

    package init(body: Data, response: CurlResponse, metrics: CurlTransferMetrics) {
        self.body = body
        self.response = response
        self.metrics = metrics
    }
}
