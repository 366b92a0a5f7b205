import Foundation
import WebImageCore

/// One HTTP (or, when allowed, `file:`) request as the curl engine runs it: what to send and the limits that
/// bound the transfer.
///
/// A value type with no C in it; the engine turns it into easy-handle options on its own thread.
package struct CurlRequest: Sendable {
    /// Where a waiting transfer stands in the engine's queue: high before normal before low.
    package enum Priority: Int, Sendable, Comparable, CaseIterable {
        case low = 0
        case normal = 1
        case high = 2

        package static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The URL, as an absolute string.
    package var url: String
    /// The HTTP method; `GET` unless set.
    package var method: String = "GET"
    /// Request headers in order; a name may repeat.
    package var headers: [HTTPHeader] = []
    /// The request body, sent as is.
    package var body: Data?
    /// How long the connection (DNS, TCP, TLS) may take.
    package var connectTimeout: Duration = .seconds(10)
    /// How long the whole transfer may take.
    package var totalTimeout: Duration = .seconds(15)
    /// How long the transfer may go without receiving a byte (curl's low-speed limit of 1 byte a second, counted in
    /// whole seconds, at least 1).
    package var stallTimeout: Duration = .seconds(10)
    /// The largest body accepted, checked against an announced length and while streaming.
    package var maxResponseSize: Int64 = 64 * 1024 * 1024
    /// Whether `file:` URLs are allowed in addition to `http:` and `https:`. Redirects never go to `file:`.
    package var allowsFileScheme = false
    /// The most redirects followed; redirects go only to `http:` and `https:`.
    package var maxRedirects = 10
    /// Whether the server's certificate and host name are verified.
    package var verifiesTLS = true
    /// Basic-authentication credentials.
    package var credentials: ImageDownloaderCredentials?
    /// Whether the engine's cookie store is used (sends its cookies, keeps the response's).
    package var usesCookies = false
    /// The priority among waiting transfers.
    package var priority: Priority = .normal
    /// The hosts and addresses the transfer may connect to, for the request and each redirect; nil for any.
    package var addressPolicy: ImageAddressPolicy?

    package init(url: String) {
        self.url = url
    }

    /// The protocols curl may use for this request.
    var allowedProtocols: String { allowsFileScheme ? "http,https,file" : "http,https" }

    /// The options that may stay on a handle after this request, for the next request with equal ones; nil when
    /// the request sets anything else (another method, a body, credentials, cookies, no TLS verification, an address
    /// policy, whose callbacks point into the transfer), whose handle is reset.
    var reusableSettings: CurlHandleSettings? {
        guard method == "GET", body == nil, credentials == nil, !usesCookies, verifiesTLS, addressPolicy == nil else { return nil }
        return CurlHandleSettings(
            allowsFileScheme: allowsFileScheme,
            maxRedirects: maxRedirects,
            connectTimeout: connectTimeout,
            totalTimeout: totalTimeout,
            stallTimeout: stallTimeout,
            maxResponseSize: maxResponseSize,
            waitsForMultiplexing: Self.isHTTPS(url)
        )
    }

    /// Whether `url` starts with `https:`, in any case, without making a lowercased copy of it.
    static func isHTTPS(_ url: String) -> Bool {
        hasScheme("https", url)
    }

    /// Whether `url` starts with `http:` or `https:`, in any case.
    static func isHTTP(_ url: String) -> Bool {
        hasScheme("http", url) || hasScheme("https", url)
    }

    /// Whether `url` starts with `scheme` (lowercase letters) and a colon, in any case.
    private static func hasScheme(_ scheme: String, _ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        for letter in scheme.utf8 {
            // Setting the 0x20 bit lowers an upper-case letter; of all bytes, only the two cases of a letter map to it.
            guard let byte = bytes.next(), byte | 0x20 == letter else { return false }
        }
        return bytes.next() == UInt8(ascii: ":")
    }
}
