#if canImport(Glibc)
import Glibc
#endif

/// The proxy that libcurl takes from the environment for plain `http` URLs, as far as connection pooling goes:
/// whether one is set, and the hosts `no_proxy` exempts from it.
///
/// libcurl reads `http_proxy` (lower case only), else `all_proxy` or `ALL_PROXY`; an empty value or a SOCKS proxy
/// (`socks4://`, `socks5h://` ...) pools connections by origin like no proxy. `no_proxy` (else `NO_PROXY`) is `*`, or a
/// list of host names separated by commas or blanks, each matching itself and its subdomains (a leading dot is
/// ignored). An address range (`10.0.0.0/8`) is taken as exempting nothing: a transfer counted against the proxy that
/// libcurl sends directly only waits longer in the engine. `https` URLs tunnel through an HTTP proxy and are pooled
/// by origin, so only `http` URLs are affected. Read once, when the engine is made; an immutable value.
struct CurlProxyEnvironment: Sendable {
    /// Whether plain `http` URLs go through an HTTP proxy, unless exempted.
    let proxiesHTTP: Bool
    /// Whether `no_proxy` is `*`.
    let exemptsAll: Bool
    /// The host names of `no_proxy`, lowercased, without a leading dot.
    let exemptHosts: [String]

    /// Reads the settings through `variable`, which returns an environment variable's value or nil.
    init(variable: (String) -> String?) {
        let proxy = variable("http_proxy") ?? variable("all_proxy") ?? variable("ALL_PROXY") ?? ""
        let scheme = proxy.lowercased().split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        proxiesHTTP = !proxy.isEmpty && !scheme.hasPrefix("socks")
        let exemptions = variable("no_proxy") ?? variable("NO_PROXY") ?? ""
        exemptsAll = exemptions == "*"
        exemptHosts = exemptions.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap { entry in
            let name = entry.hasPrefix(".") ? entry.dropFirst() : entry
            return name.isEmpty ? nil : name.lowercased()
        }
    }

    /// The environment of this process.
    static func current() -> CurlProxyEnvironment {
        CurlProxyEnvironment { name in getenv(name).map { String(cString: $0) } }
    }

    /// Whether libcurl sends a plain `http` request for `host` (lowercased) through the proxy. An address is
    /// exempted only by itself, as libcurl matches addresses by value or range, not by suffix.
    func proxiesPlainHTTP(to host: String) -> Bool {
        guard proxiesHTTP, !exemptsAll else { return false }
        let isAddress = host.contains(":") || host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }
        return !exemptHosts.contains { name in
            host == name
                || (!isAddress && host.hasSuffix(name) && host.utf8.dropLast(name.utf8.count).last == UInt8(ascii: "."))
        }
    }
}
