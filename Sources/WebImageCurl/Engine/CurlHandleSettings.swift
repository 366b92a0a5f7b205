/// The options of a plain request (a GET without a body, credentials or cookies, with TLS verified) that stay on an
/// easy handle from one transfer to the next: a handle that served such a request goes back to the pool without
/// `curl_easy_reset`, and a later request with equal settings takes it with these options already set, setting only
/// what belongs to the transfer (URL, headers, context, error buffer).
///
/// Any other request gets a handle that was reset, and sets every option.
struct CurlHandleSettings: Equatable {
    var allowsFileScheme: Bool
    var maxRedirects: Int
    var connectTimeout: Duration
    var totalTimeout: Duration
    var stallTimeout: Duration
    var maxResponseSize: Int64
    /// Whether the transfer waits to learn if its connection multiplexes (https only).
    var waitsForMultiplexing: Bool
}
