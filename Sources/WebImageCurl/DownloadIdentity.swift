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

    package init(request: ImageRequest, credentials: ImageDownloaderCredentials?, options: ImageOptions) {
        url = request.url.absoluteString
        method = request.method.uppercased()
        headers = request.headers.enumerated()
            .map { (offset: $0.offset, header: HTTPHeader(name: $0.element.name.lowercased(), value: $0.element.value)) }
            .sorted { $0.header.name != $1.header.name ? $0.header.name < $1.header.name : $0.offset < $1.offset }
            .map(\.header)
        self.credentials = credentials
        allowsInvalidCertificates = options.contains(.allowInvalidSSLCertificates)
        usesCookies = options.contains(.handleCookies)
    }
}
