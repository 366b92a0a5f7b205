/// Which hosts and addresses an ``ImageDownloader`` may connect to: a server that fetches the URLs its clients name
/// is the classic target of server-side request forgery, where a URL such as `http://169.254.169.254/` or a name that
/// resolves to `10.0.0.5` reaches the server's own network.
///
/// The policy is checked on the address libcurl is about to connect to, after DNS, for the request and for every
/// redirect, so that a name that resolves to a public address once and a private one the next time (DNS rebinding)
/// gains nothing; the host lists are checked on each hop's host before it connects. A refusal fails the load with
/// `WebImageError.Code.addressRefused`, which the library never retries and never puts on the failed list.
///
/// ```swift
/// var config = ImageDownloaderConfig()
/// config.addressPolicy = .publicOnly
/// config.addressPolicy.internalHosts = ["images.internal"] // the service's own image store
/// ```
///
/// Host entries are names (matched without regard to case or a trailing dot), `*.example.com` for every name under
/// `example.com` (not `example.com` itself), or IP addresses in their usual text form. With a proxy, the address
/// connected to is the proxy's: the policy then checks the proxy, and the host lists the URL's hosts.
public struct ImageAddressPolicy: Sendable, Hashable {
    /// Whether only public addresses may be connected to: not loopback, private (RFC 1918), shared (CGNAT),
    /// link-local, multicast, unspecified, reserved or documentation IPv4 ranges, nor IPv6's loopback, unique-local,
    /// link-local, site-local, multicast and documentation ranges, nor IPv6 forms of a refused IPv4 address
    /// (IPv4-mapped, NAT64, 6to4).
    public var publicAddressesOnly: Bool
    /// The only hosts loaded from, for the request and each redirect; nil allows any host.
    public var allowedHosts: Set<String>?
    /// Hosts never loaded from, whatever else allows them; an address in this list is refused however the URL
    /// names it (`http://2130706433/` is `127.0.0.1`).
    public var deniedHosts: Set<String>
    /// Hosts that may be reached at addresses that are not public, under ``publicAddressesOnly``: a service's own
    /// image store, say. Any other host that resolves to such an address is refused.
    public var internalHosts: Set<String>

    /// Every host and address: SDWebImage's behaviour, and the default.
    public static let allowAll = ImageAddressPolicy()
    /// Public addresses only, any host.
    public static let publicOnly = ImageAddressPolicy(publicAddressesOnly: true)

    public init(
        publicAddressesOnly: Bool = false, allowedHosts: Set<String>? = nil, deniedHosts: Set<String> = [],
        internalHosts: Set<String> = []
    ) {
        self.publicAddressesOnly = publicAddressesOnly
        self.allowedHosts = allowedHosts
        self.deniedHosts = deniedHosts
        self.internalHosts = internalHosts
    }

    /// Whether the policy allows everything, so that the downloader need check nothing.
    public var allowsEverything: Bool { !publicAddressesOnly && allowedHosts == nil && deniedHosts.isEmpty }

    /// Whether the host lists allow loading from `host` (a URL's host: a name, or an address, IPv6 in brackets or
    /// not). The address it resolves to is checked when the downloader connects.
    public func allowsHost(_ host: String) -> Bool {
        refusal(ofHost: host) == nil
    }

    /// Whether the policy lets a connection be made to `address` (its usual text form) for `host`; false for text
    /// that is not an IP address.
    public func allowsConnection(to address: String, forHost host: String) -> Bool {
        guard let parsed = IPAddress(address) else { return false }
        return refusal(ofAddress: parsed, host: host) == nil
    }

    /// Whether `address` (its usual text form) is public, as ``publicAddressesOnly`` judges it; nil for text that is
    /// not an IP address.
    public static func isPublicAddress(_ address: String) -> Bool? {
        IPAddress(address)?.isPublic
    }

    // MARK: Refusals

    /// Why the host lists refuse `host`, or nil.
    func refusal(ofHost host: String) -> String? {
        let name = Self.normalized(host)
        if Self.matches(name, deniedHosts) { return "the host \(name) is denied" }
        if let allowedHosts, !Self.matches(name, allowedHosts) { return "the host \(name) is not among the allowed hosts" }
        return nil
    }

    /// Why a connection to `address` for `host` is refused, or nil.
    func refusal(ofAddress address: IPAddress, host: String?) -> String? {
        if let host, let refused = refusal(ofHost: host) { return refused }
        let text = address.description
        if !deniedHosts.isEmpty, Self.matches(text, deniedHosts) { return "the address \(text) is denied" }
        guard publicAddressesOnly, !address.isPublic else { return nil }
        if let host, Self.matches(Self.normalized(host), internalHosts) { return nil }
        return "\(host.map { "\(Self.normalized($0)) resolves to " } ?? "")\(text), which is not a public address"
    }

    /// A host as the lists compare it: lowercased, without a trailing dot or IPv6 brackets, an address in its
    /// canonical form.
    static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        if let address = IPAddress(name) { return address.description }
        return name
    }

    /// Whether `name` (normalized) is in `entries`, directly or under a `*.` entry.
    private static func matches(_ name: String, _ entries: Set<String>) -> Bool {
        for entry in entries {
            let normalizedEntry = normalized(entry)
            if normalizedEntry.hasPrefix("*.") {
                if name.hasSuffix(normalizedEntry.dropFirst()) { return true }
            } else if normalizedEntry == name {
                return true
            }
        }
        return false
    }
}
