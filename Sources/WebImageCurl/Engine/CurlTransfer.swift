import CCurl
import Foundation
import WebImageCore

/// The context of one running transfer: its easy handle, the buffers curl writes into and the sink it reports to.
///
/// Lives on the curl thread only. Reaches curl's callbacks through `CURLOPT_PRIVATE` (and the write and header data
/// pointers) as an `Unmanaged` reference that the loop retains once when the handle is added to the multi handle
/// and releases exactly once when it is removed.
final class CurlTransfer {
    let id: CurlTransferID
    let request: CurlRequest
    let sink: any CurlTransferSink
    /// What the engine admitted the transfer under; given back when it is removed.
    let connectionKey: CurlConnectionKey
    let easy: UnsafeMutableRawPointer
    private let counters: CurlLiveCounters

    /// curl's error text for the last failure (`CURLOPT_ERRORBUFFER`), alive as long as the handle.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The request headers, alive as long as the handle.
    var headerList: CurlHeaderList?

    /// Nanoseconds the transfer waited in the engine's queue for a slot and its host's connections, before curl
    /// had it.
    let queued: Int64
    /// The body received so far.
    var body = CurlBodyBuffer()
    /// The current response's headers; reset at each new status line (redirects, 100 Continue).
    var responseHeaders: [HTTPHeader] = []
    /// The response reported to the sink, once known.
    var response: CurlResponse?
    /// Why the engine stopped the transfer, when it did.
    var abort: CurlError.Abort?
    /// Why the request's address policy refused a connection or a request, when it did. A refused address does not
    /// fail the transfer by itself (curl tries the host's other addresses): it names the failure if one follows.
    var policyRefusal: String?
    /// Counts the callbacks that brought bytes (header lines and body chunks); the engine's stall check compares
    /// it between rounds, so the callbacks read no clock.
    var activity: UInt64 = 0
    /// The stall check's record: the activity it last saw, and when it saw it change (or the transfer start).
    var stallCheck: (activity: UInt64, since: CurlInstant) = (0, .now)

    /// Whether the transfer has received nothing for its stall timeout, as of `now`; records activity seen since
    /// the last check. The clock starts once the request has been sent: before that the transfer may be waiting
    /// for a connection (for a first connection to a host to show whether it multiplexes, or, after a redirect to
    /// another host, for one of that host's connections), which the connect and whole-transfer timeouts bound.
    /// Curl thread only.
    func hasStalled(at now: CurlInstant) -> Bool {
        if activity != stallCheck.activity || (activity == 0 && !hasSentRequest) {
            stallCheck = (activity, now)
            return false
        }
        // Converted only here, when nothing came since the last check: rare, and the conversion divides.
        return now - stallCheck.since >= CurlInstant.nanoseconds(request.stallTimeout)
    }

    /// Whether curl has connected and sent the request (its pre-transfer time is known).
    private var hasSentRequest: Bool {
        var pretransfer: curl_off_t = 0
        return wi_curl_easy_getinfo_offset(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer) == CURLE_OK && pretransfer > 0
    }

    /// The request's ``CurlRequest/reusableSettings``, worked out once when the transfer starts.
    var reusableSettings: CurlHandleSettings?

    /// Where the engine keeps this transfer among its running ones, while it runs. Curl thread only.
    var runningIndex = 0

    /// Whether the handle went back to the engine's pool; a transfer that still owns it frees it.
    var handleReturned = false

    /// Makes the context around `easy`, a fresh or reset handle from the engine's pool, which it owns until
    /// ``handleReturned`` is set.
    init(submission: CurlSubmission, easy: UnsafeMutableRawPointer, counters: CurlLiveCounters) {
        id = submission.id
        request = submission.request
        sink = submission.sink
        connectionKey = submission.connectionKey
        queued = CurlInstant.now - submission.submitted
        self.easy = easy
        self.counters = counters
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        counters.contextCreated()
    }

    deinit {
        if !handleReturned { CurlEasyPool.free(easy, counters) }
        errorBuffer.deallocate()
        counters.contextDestroyed()
    }

    /// curl's error text for this transfer, empty when it wrote none.
    var errorText: String { String(cString: errorBuffer) }

    /// Builds the response from the last status line and headers, and reports it once.
    func deliverResponseIfNeeded() {
        guard response == nil else { return }
        var length: curl_off_t = -1
        let known = wi_curl_easy_getinfo_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK
            && length >= 0
        var status = 0
        var code: Int = 0
        if wi_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK { status = code }
        var urlPointer: UnsafeMutablePointer<CChar>?
        var url = request.url
        // Usually the URL asked for (no redirect): kept without making a new string.
        if wi_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &urlPointer) == CURLE_OK, let urlPointer,
           request.url.withCString({ strcmp(urlPointer, $0) }) != 0 {
            url = String(cString: urlPointer)
        }
        let response = CurlResponse(
            statusCode: status, headers: responseHeaders, expectedContentLength: known ? Int64(length) : nil, url: url
        )
        self.response = response
        if known {
            // A failure here only means the buffer grows as the bytes come.
            _ = body.reserve(Int(min(Int64(length), request.maxResponseSize)))
        }
        sink.didReceiveResponse(response)
    }

    /// Whether the URL curl worked on last (after any redirect) is `http` or `https` and a request was sent: a
    /// scheme curl refuses is refused before anything is sent, and the URL it names is then the refused one.
    private var sentHTTPRequest: Bool {
        var requestSize = 0
        var urlPointer: UnsafeMutablePointer<CChar>?
        guard wi_curl_easy_getinfo_long(easy, CURLINFO_REQUEST_SIZE, &requestSize) == CURLE_OK, requestSize > 0,
              wi_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &urlPointer) == CURLE_OK, let urlPointer else {
            return false
        }
        let scheme = String(cString: urlPointer).prefix { $0 != ":" }.lowercased()
        return scheme == "http" || scheme == "https"
    }

    /// The metrics curl measured, read once the transfer is done.
    func metrics() -> CurlTransferMetrics {
        func duration(_ info: CURLINFO) -> Duration {
            var value: curl_off_t = 0
            guard wi_curl_easy_getinfo_offset(easy, info, &value) == CURLE_OK else { return .zero }
            return .microseconds(value)
        }
        var version = 0
        _ = wi_curl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        var connects = 0
        _ = wi_curl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var bytes: curl_off_t = 0
        _ = wi_curl_easy_getinfo_offset(easy, CURLINFO_SIZE_DOWNLOAD_T, &bytes)
        let versionName: String? = switch version {
        case Int(CURL_HTTP_VERSION_1_0): "1.0"
        case Int(CURL_HTTP_VERSION_1_1): "1.1"
        case Int(CURL_HTTP_VERSION_2_0): "2"
        case Int(CURL_HTTP_VERSION_3): "3"
        default: nil
        }
        return CurlTransferMetrics(
            nameLookup: duration(CURLINFO_NAMELOOKUP_TIME_T),
            connect: duration(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: duration(CURLINFO_APPCONNECT_TIME_T),
            firstByte: duration(CURLINFO_STARTTRANSFER_TIME_T),
            total: duration(CURLINFO_TOTAL_TIME_T),
            bytesReceived: Int64(bytes),
            httpVersion: versionName,
            reusedConnection: versionName != nil && connects == 0,
            queued: .nanoseconds(max(0, queued))
        )
    }

    /// The transfer's outcome for curl's result code.
    func result(for code: CURLcode) -> Result<CurlTransferResult, WebImageError> {
        if code == CURLE_COULDNT_CONNECT || code == CURLE_ABORTED_BY_CALLBACK, abort == nil, let policyRefusal {
            return .failure(WebImageError(.addressRefused, "the address policy refused the load of \(request.url): \(policyRefusal)"))
        }
        guard code == CURLE_OK, abort == nil else {
            var redirects = 0
            _ = wi_curl_easy_getinfo_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
            var osError = 0
            _ = wi_curl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError)
            return .failure(
                CurlError.map(
                    code, abort: abort, detail: errorText, url: request.url, redirected: redirects > 0,
                    sentHTTPRequest: (code == CURLE_UNSUPPORTED_PROTOCOL || code == CURLE_BAD_FUNCTION_ARGUMENT) && sentHTTPRequest,
                    osError: Int32(truncatingIfNeeded: osError)
                )
            )
        }
        deliverResponseIfNeeded()
        guard let response else {
            return .failure(CurlError.map(code, detail: "no response", url: request.url))
        }
        // curl reads some status lines it cannot make sense of (`HTTP/200 OK`) as status 0 and goes on; only a
        // `file:` URL has no status.
        if !(100...999).contains(response.statusCode), CurlRequest.isHTTP(response.url) {
            return .failure(CurlError.missingStatus(response.statusCode, url: request.url))
        }
        return .success(CurlTransferResult(body: body.take(), response: response, metrics: metrics()))
    }
}
