import CCurl
import Foundation
import WebImageCore

extension CurlTransfer {
    /// Sets the easy handle's options from the request. Curl thread only.
    ///
    /// - Parameters:
    ///   - context: The opaque reference to this context that the callbacks and `CURLOPT_PRIVATE` carry.
    ///   - share: The engine's cookie share handle, used when the request asks for cookies.
    ///   - headers: The request's header lines, made by the engine (which reuses them across transfers); the
    ///     transfer keeps them for as long as its handle.
    ///   - settingsInPlace: Whether the handle still has the options of an earlier request with this request's
    ///     ``CurlRequest/reusableSettings`` (see ``CurlHandleSettings``); then only the transfer's own are set.
    /// - Throws: `invalidDownloadOperation` when curl refuses an option, naming it.
    func configure(
        context: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?, headers: CurlHeaderList?, settingsInPlace: Bool
    ) throws(WebImageError) {
        if !settingsInPlace {
            try configureSettings(share: share)
        }
        try setString(CURLOPT_URL, request.url)
        try check(wi_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try check(wi_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, context), "CURLOPT_PRIVATE")
        try check(wi_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(wi_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        try configureHeaders(headers)
        if request.addressPolicy != nil {
            try check(wi_curl_easy_setopt_opensocket(easy, curlTransferOpenSocket), "CURLOPT_OPENSOCKETFUNCTION")
            try check(wi_curl_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context), "CURLOPT_OPENSOCKETDATA")
            try check(wi_curl_easy_setopt_prereq(easy, curlTransferBeforeRequest), "CURLOPT_PREREQFUNCTION")
            try check(wi_curl_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, context), "CURLOPT_PREREQDATA")
        }
    }

    /// Clears what points into this transfer (its context, error buffer and header lines) from a handle that goes
    /// back to the pool with its settings in place, so that nothing the handle keeps outlives the transfer.
    func detachFromHandle() {
        _ = wi_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, nil)
        _ = wi_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, nil)
        _ = wi_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, nil)
        _ = wi_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, nil)
        _ = wi_curl_easy_setopt_list(easy, CURLOPT_HTTPHEADER, nil)
        if request.addressPolicy != nil {
            _ = wi_curl_easy_setopt_opensocket(easy, nil)
            _ = wi_curl_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, nil)
            _ = wi_curl_easy_setopt_prereq(easy, nil)
            _ = wi_curl_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, nil)
        }
    }

    /// The options that do not point into the transfer: those of ``CurlHandleSettings`` and the rest of the
    /// request (method, body, credentials, cookies, TLS checks), on a fresh or reset handle.
    private func configureSettings(share: UnsafeMutableRawPointer?) throws(WebImageError) {
        let request = request
        try set(CURLOPT_NOSIGNAL, 1)
        try setString(CURLOPT_PROTOCOLS_STR, request.allowedProtocols)
        try setString(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 1)
        try set(CURLOPT_MAXREDIRS, request.maxRedirects)
        try set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout))
        try set(CURLOPT_TIMEOUT_MS, milliseconds(request.totalTimeout))
        try set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try set(CURLOPT_LOW_SPEED_TIME, max(1, Int(request.stallTimeout.components.seconds)))
        try check(
            wi_curl_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseSize)),
            "CURLOPT_MAXFILESIZE_LARGE"
        )
        try set(CURLOPT_SSL_VERIFYPEER, request.verifiesTLS ? 1 : 0)
        try set(CURLOPT_SSL_VERIFYHOST, request.verifiesTLS ? 2 : 0)
        try setString(CURLOPT_ACCEPT_ENCODING, "")
        // Waiting for a connection to show whether it multiplexes pays only where HTTP/2 can be negotiated (TLS with
        // ALPN); over plain http the wait lasts until the first response, holding every other transfer to the host.
        if CurlRequest.isHTTPS(request.url) {
            try set(CURLOPT_PIPEWAIT, 1)
        }
        try check(
            wi_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlTransferWrite), "CURLOPT_WRITEFUNCTION"
        )
        try check(
            wi_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlTransferHeader),
            "CURLOPT_HEADERFUNCTION"
        )
        try configureMethod()
        if let credentials = request.credentials {
            try setString(CURLOPT_USERNAME, credentials.user)
            try setString(CURLOPT_PASSWORD, credentials.password)
            try set(CURLOPT_HTTPAUTH, wi_curl_auth_basic())
        }
        if request.usesCookies, let share {
            try check(wi_curl_easy_setopt_share(easy, share), "CURLOPT_SHARE")
            try setString(CURLOPT_COOKIEFILE, "")
        }
    }

    private func configureMethod() throws(WebImageError) {
        switch request.method == "GET" ? "GET" : request.method.uppercased() {
        case "GET":
            break
        case "HEAD":
            try set(CURLOPT_NOBODY, 1)
        default:
            try setString(CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let body = request.body {
            try check(
                wi_curl_easy_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                "CURLOPT_POSTFIELDSIZE_LARGE"
            )
            // COPYPOSTFIELDS copies the bytes, so the body need not outlive this call.
            let code = body.withUnsafeBytes { bytes in
                wi_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
            try check(code, "CURLOPT_COPYPOSTFIELDS")
        }
    }

    /// Sets the header lines the engine made for this request's headers (nil when curl could not allocate them),
    /// or none (a handle from the pool may still name an earlier transfer's).
    private func configureHeaders(_ headers: CurlHeaderList?) throws(WebImageError) {
        guard !request.headers.isEmpty else {
            try check(wi_curl_easy_setopt_list(easy, CURLOPT_HTTPHEADER, nil), "CURLOPT_HTTPHEADER")
            return
        }
        guard let headers else {
            throw WebImageError(.invalidDownloadOperation, "could not make the header lines of \(request.url)")
        }
        headerList = headers
        try check(wi_curl_easy_setopt_list(easy, CURLOPT_HTTPHEADER, headers.list), "CURLOPT_HTTPHEADER")
    }

    private func set(_ option: CURLoption, _ value: Int) throws(WebImageError) {
        try check(wi_curl_easy_setopt_long(easy, option, value), "option \(option.rawValue)")
    }

    /// curl copies string options, so the C string need not outlive the call.
    private func setString(_ option: CURLoption, _ value: String) throws(WebImageError) {
        let code = value.withCString { wi_curl_easy_setopt_string(easy, option, $0) }
        try check(code, "option \(option.rawValue)")
    }

    /// Throws when curl refused an option; `what` names it, and is formatted only then.
    private func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws(WebImageError) {
        guard code != CURLE_OK else { return }
        if code == CURLE_URL_MALFORMAT {
            throw CurlError.map(code, url: request.url)
        }
        let reason = String(cString: curl_easy_strerror(code))
        throw WebImageError(.invalidDownloadOperation, "curl refused \(what()) for \(request.url): \(reason)")
    }

    private func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
