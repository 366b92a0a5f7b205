import WebImageCore

/// The last response of a transfer (after redirects): status, headers and what they announce.
package struct CurlResponse: Sendable {
    /// The HTTP status code; 0 for a `file:` URL.
    package var statusCode: Int
    /// The response headers in the order received, names as the server spelt them.
    package var headers: [HTTPHeader]
    /// The body length the server announced, or nil when it did not.
    package var expectedContentLength: Int64?
    /// The final URL, after redirects.
    package var url: String

    package init(statusCode: Int, headers: [HTTPHeader], expectedContentLength: Int64?, url: String) {
        self.statusCode = statusCode
        self.headers = headers
        self.expectedContentLength = expectedContentLength
        self.url = url
    }

    /// The value of the first header with this name, compared case-insensitively.
    package func value(forHeader name: String) -> String? {
        headers.value(named: name)
    }

    /// The `Content-Type` header, if any.
    package var contentType: String? { value(forHeader: "Content-Type") }
}
