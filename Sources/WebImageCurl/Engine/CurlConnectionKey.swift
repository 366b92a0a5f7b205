/// What libcurl pools a transfer's connection under, as far as the engine's admission needs to know.
///
/// libcurl limits connections by bundle (`CURLMOPT_MAX_HOST_CONNECTIONS`): the host name and port a connection goes
/// to, which is the proxy's for a plain `http` URL sent through an HTTP proxy, and the origin's otherwise (a tunnel
/// through a proxy, which `https` uses, is pooled by the origin). The scheme is not part of it. The engine keys its
/// own count the same way, or more coarsely where it cannot tell (host names are compared without case, and a proxy
/// entry it does not understand counts as applying): a coarser key only makes a transfer wait longer in the engine,
/// never in libcurl.
enum CurlConnectionKey: Hashable, Sendable {
    /// A transfer the engine does not count: `file:` and other URLs that open no network connection, and every
    /// transfer of an engine whose limits cannot be reached (see ``CurlEngine/Configuration/countsConnections``).
    case uncounted
    /// A host name (lowercased; an IPv6 address without its brackets) and port.
    case origin(host: String, port: Int)
    /// The HTTP proxy that plain `http` URLs go through, from the environment.
    case proxy

    /// The key of `url`, an absolute URL, given the proxy settings of the environment.
    init(url: String, proxy: CurlProxyEnvironment) {
        guard let parts = Self.hostAndPort(of: url) else {
            self = .uncounted
            return
        }
        if parts.isPlainHTTP, proxy.proxiesPlainHTTP(to: parts.host) {
            self = .proxy
        } else {
            self = .origin(host: parts.host, port: parts.port)
        }
    }

    /// The lowercased host, the port (the scheme's when none is written) and whether the scheme is `http`; nil for
    /// a URL that is not `http` or `https`, or has no host.
    static func hostAndPort(of url: String) -> (host: String, port: Int, isPlainHTTP: Bool)? {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: return nil
        }
        // The authority: after "//", up to the path, query or fragment; without the user information.
        var start = colon + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: "/") || bytes[start] == UInt8(ascii: "\\") { start += 1 }
        var end = start
        while end < bytes.count, !"/?#\\".utf8.contains(bytes[end]) { end += 1 }
        var authority = bytes[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        let host: ArraySlice<UInt8>
        var portText: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            host = authority[(authority.startIndex + 1)..<close]
            let rest = authority[(close + 1)...]
            if rest.first == UInt8(ascii: ":") { portText = rest.dropFirst() }
        } else if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[..<portColon]
            portText = authority[(portColon + 1)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        let port = portText.isEmpty ? defaultPort : Int(String(decoding: portText, as: UTF8.self)) ?? defaultPort
        return (String(decoding: host, as: UTF8.self).lowercased(), port, scheme == "http")
    }
}
