import CCurl
import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// curl's open-socket callback, set only under an address policy: opens the socket for an address the policy allows
/// and refuses any other, for the request and every redirect, after DNS. Runs on the curl thread; `context` is the
/// transfer's unretained reference.
let curlTransferOpenSocket: curl_opensocket_callback = { context, _, address in
    guard let context, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.openSocket(for: address)
}

/// curl's pre-request callback, set only under an address policy: checks the connection a request is about to be
/// sent on, a reused one included, before anything is sent. Runs on the curl thread.
let curlTransferBeforeRequest: curl_prereq_callback = { context, primaryIP, _, _, _ in
    guard let context else { return CURL_PREREQFUNC_ABORT }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let address = primaryIP.map { String(cString: $0) } ?? ""
    return transfer.allowsRequest(onConnectionTo: address) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

extension CurlTransfer {
    /// Opens a socket for `address` when the request's policy allows it for the host being loaded; otherwise
    /// records why in ``policyRefusal`` and returns `CURL_SOCKET_BAD`, which curl reports as a failure to connect
    /// once no other address of the host is left to try.
    func openSocket(for address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        if let policy = request.addressPolicy {
            var bytes = [UInt8](repeating: 0, count: 16)
            let count = Int(wi_curl_sockaddr_bytes(address, &bytes))
            guard let ip = IPAddress(bytes: Array(bytes.prefix(count))) else {
                policyRefusal = "a connection that is not over IPv4 or IPv6"
                return CURL_SOCKET_BAD
            }
            if let refusal = policy.refusal(ofAddress: ip, host: currentHost) {
                policyRefusal = refusal
                return CURL_SOCKET_BAD
            }
        }
        var type = address.pointee.socktype
        #if os(Linux)
        type |= Int32(SOCK_CLOEXEC.rawValue)
        #endif
        return socket(address.pointee.family, type, address.pointee.protocol)
    }

    /// Whether the request about to be sent on a connection to `address` (its text form) is allowed: the hop's host
    /// by the host lists, the address as when connecting. Records why not in ``policyRefusal``.
    func allowsRequest(onConnectionTo address: String) -> Bool {
        guard let policy = request.addressPolicy else { return true }
        let host = currentHost
        let refusal: String? = if let ip = IPAddress(address) {
            policy.refusal(ofAddress: ip, host: host)
        } else {
            host.flatMap { policy.refusal(ofHost: $0) }
        }
        guard let refusal else { return true }
        policyRefusal = refusal
        return false
    }

    /// The host of the URL curl is loading now: the request's, or the redirect's it follows.
    private var currentHost: String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard wi_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer else {
            return URLComponents(string: request.url)?.host
        }
        return URLComponents(string: String(cString: pointer))?.host
    }
}
