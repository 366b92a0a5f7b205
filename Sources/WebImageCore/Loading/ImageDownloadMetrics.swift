/// How one transfer went: where the time went and what came back. The downloader fills it from libcurl's timing
/// fields; other data loaders may fill it from their own.
public struct ImageDownloadMetrics: Sendable, Hashable {
    /// Time to resolve the host name, from the start.
    public var nameLookup: Duration
    /// Time until the TCP connection was made, from the start.
    public var connect: Duration
    /// Time until the TLS handshake ended, from the start (zero without TLS).
    public var tlsHandshake: Duration
    /// Time until the first byte of the response arrived, from the start.
    public var firstByte: Duration
    /// Time for the whole transfer, redirects included.
    public var total: Duration
    /// Body bytes received.
    public var bytesReceived: Int64
    /// The HTTP version spoken (`1.1`, `2`), or nil when unknown.
    public var httpVersion: String?
    /// Whether the transfer reused a connection that was already open.
    public var reusedConnection: Bool
    /// Time the transfer waited in the downloader's queue, for a free slot and for its host's connections, before
    /// it started; not part of ``total`` or the other times, which count from the start. The downloader's
    /// timeouts do not run while a transfer waits.
    public var queued: Duration

    public init(
        nameLookup: Duration,
        connect: Duration,
        tlsHandshake: Duration,
        firstByte: Duration,
        total: Duration,
        bytesReceived: Int64,
        httpVersion: String?,
        reusedConnection: Bool,
        queued: Duration = .zero
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
