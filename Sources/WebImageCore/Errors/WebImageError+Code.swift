extension WebImageError {
    /// A stable error code. Values below 3000 are SDWebImage's; the library's own start at 3000.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The URL is missing, malformed or empty.
        public static let invalidURL = Code(rawValue: 1000)
        /// The data is empty, malformed, truncated or otherwise cannot be decoded.
        public static let badImageData = Code(rawValue: 1001)
        /// A revalidation found the cached data still current.
        public static let cacheNotModified = Code(rawValue: 1002)
        /// The URL is on the failed-URL list.
        public static let blackListed = Code(rawValue: 1003)
        /// The download operation could not be made.
        public static let invalidDownloadOperation = Code(rawValue: 2000)
        /// The server answered with a status outside 200..<300; see ``WebImageError/statusCode``.
        public static let invalidDownloadStatusCode = Code(rawValue: 2001)
        /// The operation was cancelled.
        public static let cancelled = Code(rawValue: 2002)
        /// The response was not usable (no response, empty body).
        public static let invalidDownloadResponse = Code(rawValue: 2003)
        /// The response's `Content-Type` is not an image.
        public static let invalidDownloadContentType = Code(rawValue: 2004)
        /// The transfer took too long or stalled.
        public static let timedOut = Code(rawValue: 3000)
        /// No connection could be made to the host.
        public static let cannotConnect = Code(rawValue: 3001)
        /// The host name did not resolve.
        public static let cannotFindHost = Code(rawValue: 3002)
        /// The connection broke during the transfer.
        public static let connectionLost = Code(rawValue: 3003)
        /// TLS failed: handshake, certificate or verification.
        public static let tlsFailure = Code(rawValue: 3004)
        /// More redirects than allowed, or a redirect to a scheme that is not allowed.
        public static let tooManyRedirects = Code(rawValue: 3005)
        /// The URL's scheme is not allowed.
        public static let unsupportedScheme = Code(rawValue: 3006)
        /// The response is larger than the configured maximum.
        public static let responseTooLarge = Code(rawValue: 3007)
        /// The image has more pixels than allowed (a decompression bomb, or an image too large to hold).
        public static let imageTooLarge = Code(rawValue: 3008)
        /// No coder can decode or encode the format.
        public static let unsupportedFormat = Code(rawValue: 3009)
        /// The image is not in the cache and the caller asked for the cache only.
        public static let notInCache = Code(rawValue: 3010)
        /// A disk operation failed.
        public static let diskIO = Code(rawValue: 3011)
        /// An encoder failed to produce data.
        public static let encodingFailed = Code(rawValue: 3012)
        /// The server's reply is not valid HTTP: no status line (an HTTP/0.9 reply), a garbled status line or header
        /// line, or a body that does not decode as its `Content-Encoding` says. A transport failure, not a permanent
        /// one: the URL is tried again.
        public static let badServerResponse = Code(rawValue: 3013)
        /// The downloader's address policy refused the host or the address a connection was about to be made to
        /// (see `ImageAddressPolicy`), for the request or one of its redirects. Never retried by the library and
        /// never put on the failed list: the policy, not the URL, decides.
        public static let addressRefused = Code(rawValue: 3014)
        /// The manager is shutting down (``ImageManager/beginShutdown()``) and refused a load started since. Never
        /// retried by the library and never put on the failed list: the URL is not at fault.
        public static let shuttingDown = Code(rawValue: 3015)

        private static let names: [Int: String] = [
            1000: "invalidURL", 1001: "badImageData", 1002: "cacheNotModified", 1003: "blackListed",
            2000: "invalidDownloadOperation", 2001: "invalidDownloadStatusCode", 2002: "cancelled",
            2003: "invalidDownloadResponse", 2004: "invalidDownloadContentType",
            3000: "timedOut", 3001: "cannotConnect", 3002: "cannotFindHost", 3003: "connectionLost",
            3004: "tlsFailure", 3005: "tooManyRedirects", 3006: "unsupportedScheme", 3007: "responseTooLarge",
            3008: "imageTooLarge", 3009: "unsupportedFormat", 3010: "notInCache", 3011: "diskIO",
            3012: "encodingFailed", 3013: "badServerResponse", 3014: "addressRefused",
            3015: "shuttingDown",
        ]

        /// The code's name as written in Swift (`badImageData`), or `code(N)` for a value the library does not name.
        public var name: String { Code.names[rawValue] ?? "code(\(rawValue))" }

        public var description: String { name }
    }
}
