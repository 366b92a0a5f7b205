import WebImageCore

/// What makes two download requests the same transfer: the final request (after the request modifier) with
/// every header and credential that shapes the response, and the options that change what the transfer may
/// see. Callers share a transfer only when their identities are equal, so callers with different
/// `Authorization` headers, cookies or TLS settings never share a response.
package struct DownloadIdentity: Hashable, Sendable {
    package let url: String
    package let method: String
    /// Header fields with lowercased names, sorted by name; fields of one name keep their order.
    package let headers: [HTTPHeader]
    package let credentials: ImageDownloaderCredentials?
    package let allowsInvalidCertificates: Bool
    package let usesCookies: Bool

    /// - Parameters:
    ///   - defaults: Header fields most requests carry unchanged (the downloader's own), with their
    ///     ``normalized(_:)`` form, so that the common request is not normalised again; nil for none.
    package init(
        request: ImageRequest,
        credentials: ImageDownloaderCredentials?,
        options: ImageOptions,
        defaults: (headers: [HTTPHeader], normalized: [HTTPHeader])? = nil
    ) {
        url = request.url.absoluteString
        method = request.method == "GET" ? "GET" : request.method.uppercased()
        if let defaults, request.headers == defaults.headers {
            headers = defaults.normalized
        } else {
            headers = Self.normalized(request.headers)
        }
        self.credentials = credentials
        allowsInvalidCertificates = options.contains(.allowInvalidSSLCertificates)
        usesCookies = options.contains(.handleCookies)
        var hasher = Hasher()
        hasher.combine(url)
        hasher.combine(method)
        hasher.combine(headers)
        hasher.combine(credentials)
        hasher.combine(allowsInvalidCertificates)
        hasher.combine(usesCookies)
        hash = hasher.finalize()
    }

    /// Header fields as an identity holds them: names lowercased, sorted by name, fields of one name in order.
    package static func normalized(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        headers.enumerated()
            .map { (offset: $0.offset, header: HTTPHeader(name: $0.element.name.lowercased(), value: $0.element.value)) }
            .sorted { $0.header.name != $1.header.name ? $0.header.name < $1.header.name : $0.offset < $1.offset }
            .map(\.header)
    }

    /// The hash of every field, computed once: an identity is hashed at least twice (added to the downloader's
    /// table and removed from it), and its headers make it long to hash.
    private let hash: Int

    package func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
