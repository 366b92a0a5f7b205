import WebImageCore

/// Timings and facts of one finished transfer, as curl measured them.
///
/// Times are cumulative from the start of the transfer, as curl reports them (`CURLINFO_*_TIME_T`).
package struct CurlTransferMetrics: Sendable, Hashable {
    /// Until the host name was resolved.
    package var nameLookup: Duration
    /// Until the TCP connection was made.
    package var connect: Duration
    /// Until the TLS handshake was done (zero without TLS).
    package var tlsHandshake: Duration
    /// Until the first byte of the response arrived.
    package var firstByte: Duration
    /// The whole transfer.
    package var total: Duration
    /// Body bytes received.
    package var bytesReceived: Int64
    /// The HTTP version used: `"1.0"`, `"1.1"`, `"2"`, `"3"`, or nil when no HTTP was spoken.
    package var httpVersion: String?
    /// Whether the transfer used a connection an earlier transfer had opened.
    package var reusedConnection: Bool
    /// The time in the engine's waiting queue, before curl had the transfer: not part of the times above.
    package var queued: Duration

    package init(
        nameLookup: Duration = .zero, connect: Duration = .zero, tlsHandshake: Duration = .zero,
        firstByte: Duration = .zero, total: Duration = .zero, bytesReceived: Int64 = 0,
        httpVersion: String? = nil, reusedConnection: Bool = false, queued: Duration = .zero
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
        self.bytesReceived = bytesReceived
        self.httpVersion = httpVersion
        self.reusedConnection = reusedConnection
        self.queued = queued
    }
}

extension ImageDownloadMetrics {
    /// The metrics of a transfer as libcurl measured it.
    init(_ metrics: CurlTransferMetrics) {
        self.init(
            nameLookup: metrics.nameLookup,
            connect: metrics.connect,
            tlsHandshake: metrics.tlsHandshake,
            firstByte: metrics.firstByte,
            total: metrics.total,
            bytesReceived: metrics.bytesReceived,
            httpVersion: metrics.httpVersion,
            reusedConnection: metrics.reusedConnection,
            queued: metrics.queued
        )
    }
}
