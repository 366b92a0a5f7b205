import WebImageCore

/// The settings of an ``ImageDownloader``, as SDWebImage's `SDWebImageDownloaderConfig`, with the defaults a
/// server needs: bounded time, bounded size, verified TLS, only `http` and `https`.
///
/// A downloader copies its configuration when it is made; changing this value later has no effect on it.
public struct ImageDownloaderConfig: Sendable {
    /// The order in which waiting downloads of equal priority start.
    public enum ExecutionOrder: Sendable, Hashable {
        /// First in, first out.
        case fifo
        /// Last in, first out: the newest request starts next, as a scrolling list wants.
        case lifo
    }

    /// How many transfers run at once; the others wait, highest priority first. At least 1.
    public var maxConcurrentDownloads = 6
    /// The order among waiting transfers of the same priority.
    ///
    /// A request that finds one of the ``maxConcurrentDownloads`` slots free starts at once, in either order, as
    /// the first operation added to an operation queue does; only the requests that find every slot taken wait,
    /// and this order picks which of them starts when a slot frees. With one slot and `.lifo`, requests 1, 2, 3
    /// made back to back run 1, 3, 2.
    public var executionOrder = ExecutionOrder.fifo
    /// Seconds to establish a connection (DNS, TCP and TLS).
    public var connectTimeout: Double = 10
    /// Seconds for a whole transfer, redirects included.
    public var downloadTimeout: Double = 15
    /// Seconds without a byte received after which a transfer fails with `timedOut`.
    public var stallTimeout: Double = 10
    /// Status codes that count as success; others fail with `invalidDownloadStatusCode` and the status.
    public var acceptableStatusCodes: Set<Int> = Set(200..<300)
    /// Media types (`image/png`, lowercased) that count as success; nil accepts any. A response without a
    /// `Content-Type` is not checked; one whose `Content-Type` names no media type (`;`, `; image/png`) fails with
    /// `invalidDownloadContentType`, as one of a type not listed.
    public var acceptableContentTypes: Set<String>?
    /// The least growth of the received fraction (0...1) between two progress reports, as SDWebImage's
    /// setting; 0 reports every chunk. The last report always comes. Ignored when the length is unknown.
    public var minimumProgressInterval: Double = 0
    /// How long, in seconds, completions for the global queue that follow one another closely may wait on the
    /// downloader's thread to be sent together (0.002 by default; 0 sends each at once). A completion that comes
    /// after a quiet spell this long goes at once; in a burst of transfers, completions go at most once per this
    /// span, so that the burst pays one thread wake-up per span instead of one per transfer. Completions on the main
    /// queue, on a queue of the caller's or inline are never held.
    public var completionBatchingInterval: Double = 0.002
    /// With `progressiveLoad`, the least time in seconds between the starts of two partial decodes (0.1 by
    /// default; 0 decodes whenever data arrives and no partial decode is running). Bytes that arrive sooner, or
    /// while a partial decode runs, are kept and decoded by the next one, which starts as soon as the interval and
    /// the running decode allow, whether or not more bytes come; the final image is never delayed.
    public var progressiveDecodeInterval: Double = 0.1
    /// Header fields sent with every request, before the request modifier runs: the downloader's fields when it
    /// is made, which ``ImageDownloader/setValue(_:forHeader:)`` changes afterwards.
    public var httpHeaders: [HTTPHeader] = ImageDownloaderConfig.defaultHeaders
    /// A user name and password for HTTP basic authentication, sent with every request.
    public var credentials: ImageDownloaderCredentials?
    /// The largest body accepted, in bytes, checked against `Content-Length` and while receiving; larger ones
    /// fail with `responseTooLarge`.
    public var maxResponseSize = 64 << 20
    /// Whether `file:` URLs are loaded; off, as a server must not read its own files for a client.
    public var allowsFileURLs = false
    /// The most redirects followed, only ever to `http` and `https`; more fail with `tooManyRedirects`, and a
    /// redirect to another scheme fails with `unsupportedScheme`.
    public var maxRedirects = 10
    /// The most connections open to one host at once; 0 for no limit. Downloads beyond it wait in the
    /// downloader's queue, where their timeouts do not run, until one of the host's transfers ends; downloads to
    /// other hosts start meanwhile. Over HTTP/2, where one connection carries many transfers, it still bounds the
    /// transfers to one host at once: raise it to run more there.
    public var maxConnectionsPerHost = 6
    /// The most connections open at once; 0 for no limit. Downloads beyond it wait in the downloader's queue, where
    /// their timeouts do not run. Idle connections kept for reuse do not count: libcurl closes them to make room.
    public var maxTotalConnections = 64
    /// Which hosts and addresses may be connected to, for each request and each of its redirects: every one by
    /// default, as SDWebImage; ``ImageAddressPolicy/publicOnly`` for a server that loads URLs its clients name.
    /// A refusal fails with `addressRefused`.
    public var addressPolicy = ImageAddressPolicy.allowAll

    public init() {}

    /// The formats the library decodes, best first, then anything else.
    public static let acceptHeader = "image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8,*/*;q=0.5"

    /// `Accept` listing the formats the library decodes, and a `User-Agent` naming the library.
    public static let defaultHeaders = [
        HTTPHeader(name: "Accept", value: acceptHeader),
        HTTPHeader(name: "User-Agent", value: "swift-web-image/\(WebImageVersion.current)"),
    ]
}

/// A user name and password for HTTP basic authentication.
public struct ImageDownloaderCredentials: Sendable, Hashable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
