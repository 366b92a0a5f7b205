import CCurl
import WebImageCore

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
    static func map(
        _ code: CURLcode, abort: Abort? = nil, detail: String = "", url: String, redirected: Bool = false
    ) -> WebImageError {
        switch abort {
        case .cancelled?:
            return WebImageError(.cancelled, "the transfer of \(url) was cancelled")
        case .responseTooLarge(let limit)?:
            return WebImageError(.responseTooLarge, "the response from \(url) is larger than \(limit) bytes")
        case .stalled(let limit)?:
            return WebImageError(.timedOut, "no data received from \(url) for \(limit)")
        case nil:
            break
        }
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if code == CURLE_UNSUPPORTED_PROTOCOL, redirected {
            return WebImageError(.unsupportedScheme, "the server redirected to a scheme that is not allowed: \(text) (\(url))")
        }
        return WebImageError(kind(of: code), "\(text) (\(url))")
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
