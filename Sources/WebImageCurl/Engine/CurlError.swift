import CCurl
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// Turns curl's result codes into the library's ``WebImageError`` kinds, with curl's own message and the URL.
enum CurlError {
    /// Why the engine itself stopped a transfer, when it did.
    enum Abort {
        /// The body grew past the request's maximum size.
        case responseTooLarge(limit: Int64)
        /// The transfer was cancelled.
        case cancelled
        /// No byte arrived for the request's stall timeout.
        case stalled(Duration)
        /// A header line the transfer refused, for the reason given.
        case malformedHeader(String)
    }

    /// The one mapping from a curl failure to a ``WebImageError``.
    ///
    /// - Parameters:
    ///   - code: curl's result code.
    ///   - abort: The engine's own reason, which wins over the code curl reports for it.
    ///   - detail: curl's error-buffer text; `curl_easy_strerror` is used when it is empty.
    ///   - url: The request's URL, named in the message.
    ///   - redirected: Whether the transfer followed a redirect; a scheme refused after one is a redirect to a scheme
    ///     that is not allowed (`file:`, say), still `unsupportedScheme` but said to come from the server.
    ///   - sentHTTPRequest: Whether curl failed on an `http` or `https` URL after sending a request for it. curl
    ///     reports a reply without a status line (HTTP/0.9) or with a garbled one as an unsupported protocol, the
    ///     code it also gives a scheme it refuses; it refuses a scheme before sending anything. Before 8.1.0, it
    ///     reports a header line it cannot store (a folded line right after the status line) as a bad argument,
    ///     the code it otherwise gives an option it refuses, which the engine checks before sending anything.
    ///   - osError: The system error curl saw last (`CURLINFO_OS_ERRNO`), 0 for none.
    static func map(
        _ code: CURLcode, abort: Abort? = nil, detail: String = "", url: String, redirected: Bool = false,
        sentHTTPRequest: Bool = false, osError: Int32 = 0
    ) -> WebImageError {
        switch abort {
        case .cancelled?:
            return WebImageError(.cancelled, "the transfer of \(url) was cancelled")
        case .responseTooLarge(let limit)?:
            return WebImageError(.responseTooLarge, "the response from \(url) is larger than \(limit) bytes")
        case .stalled(let limit)?:
            return WebImageError(.timedOut, "no data received from \(url) for \(limit)")
        case .malformedHeader(let reason)?:
            return WebImageError(.badServerResponse, "the server's reply is not valid HTTP: \(reason) (\(url))")
        case nil:
            break
        }
        let trimmed = detail.trimmingSpaces()
        let text = trimmed.isEmpty ? String(cString: curl_easy_strerror(code)) : trimmed
        if code == CURLE_SSL_CONNECT_ERROR, isLostDuringHandshake(osError: osError, text: text) {
            return WebImageError(.connectionLost, "the connection was lost during the TLS handshake: \(text) (\(url))")
        }
        if code == CURLE_UNSUPPORTED_PROTOCOL, sentHTTPRequest {
            return WebImageError(.badServerResponse, "the server's reply is not valid HTTP: \(text) (\(url))")
        }
        if code == CURLE_BAD_FUNCTION_ARGUMENT, sentHTTPRequest {
            return WebImageError(
                .badServerResponse,
                "the server's reply is not valid HTTP: a header line curl could not store (\(text)) (\(url))"
            )
        }
        if code == CURLE_UNSUPPORTED_PROTOCOL, redirected {
            return WebImageError(.unsupportedScheme, "the server redirected to a scheme that is not allowed: \(text) (\(url))")
        }
        return WebImageError(kind(of: code), "\(text) (\(url))")
    }

    /// The failure of an `http` or `https` transfer that curl completed without a status code from 100 to 999: a
    /// reply that is not HTTP, as those curl fails on itself.
    static func missingStatus(_ status: Int, url: String) -> WebImageError {
        WebImageError(.badServerResponse, "the server's reply is not valid HTTP: no status code (\(status)) (\(url))")
    }

    /// Whether an SSL connect error is the connection failing under the handshake (reset, closed, broken) rather
    /// than the handshake itself failing: curl gives both one code. A system error says so, and so does OpenSSL's
    /// `SSL_ERROR_SYSCALL` (an I/O error or an end of stream where the protocol wanted more).
    static func isLostDuringHandshake(osError: Int32, text: String) -> Bool {
        if osError == ECONNRESET || osError == EPIPE || osError == ECONNABORTED || osError == ETIMEDOUT { return true }
        return text.contains("SSL_ERROR_SYSCALL") || text.lowercased().contains("unexpected eof")
    }

    /// The error kind for a curl code; transport failures that have no kind of their own are `connectionLost`.
    static func kind(of code: CURLcode) -> WebImageError.Code {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            .timedOut
        case CURLE_COULDNT_CONNECT:
            .cannotConnect
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            .cannotFindHost
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
             CURLE_HTTP2_STREAM:
            .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_PEER_FAILED_VERIFICATION:
            .tlsFailure
        case CURLE_TOO_MANY_REDIRECTS:
            .tooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL:
            .unsupportedScheme
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
            .badServerResponse
        case CURLE_FILESIZE_EXCEEDED:
            .responseTooLarge
        case CURLE_URL_MALFORMAT:
            .invalidURL
        case CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            // A `file:` URL that names no readable file.
            .invalidDownloadOperation
        default:
            .connectionLost
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line ends (curl's error text ends with a space).
    fileprivate func trimmingSpaces() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
