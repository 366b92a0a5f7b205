#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, as the address policy checks it: its bytes in network order, and whether it is public.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    let bytes: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses the text form of an address: dotted-decimal IPv4 (four decimal parts only, as `inet_pton` reads
    /// it), or IPv6, with or without brackets and a zone (`fe80::1%eth0`). Nil for anything else, host names and
    /// the shorthand IPv4 forms (`2130706433`, `0x7f.1`) included.
    init?(_ text: some StringProtocol) {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    var isIPv4: Bool { bytes.count == 4 }

    /// The canonical text form (`127.0.0.1`, `::1`).
    var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written = bytes.withUnsafeBytes { address in
            inet_ntop(isIPv4 ? AF_INET : AF_INET6, address.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the address is reachable on the public internet: false for the unspecified, loopback, private
    /// (RFC 1918), shared (CGNAT, RFC 6598), link-local, multicast, reserved, documentation and benchmarking
    /// ranges of IPv4, and for IPv6's unspecified, loopback, unique-local, link-local, site-local, multicast,
    /// discard, documentation, Teredo, ORCHID and benchmarking ranges. IPv6 forms that carry an IPv4 address
    /// (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by that address.
    var isPublic: Bool {
        isIPv4 ? Self.isPublicIPv4(bytes[0], bytes[1], bytes[2], bytes[3]) : isPublicIPv6
    }

    private static func isPublicIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
        switch (a, b, c) {
        case (0, _, _), (10, _, _), (127, _, _): false // this network, private, loopback
        case (100, 64...127, _): false // shared address space (CGNAT)
        case (169, 254, _): false // link-local
        case (172, 16...31, _): false // private
        case (192, 0, 0), (192, 0, 2): false // protocol assignments, documentation
        case (192, 168, _): false // private
        case (198, 18...19, _): false // benchmarking
        case (198, 51, 100), (203, 0, 113): false // documentation
        case (224..., _, _): false // multicast, reserved, broadcast
        default: true
        }
    }

    private var isPublicIPv6: Bool {
        let b = bytes
        let embedded = { (at: Int) in Self.isPublicIPv4(b[at], b[at + 1], b[at + 2], b[at + 3]) }
        let zeros = { (range: Range<Int>) in b[range].allSatisfy { $0 == 0 } }
        // ::, ::1, and the deprecated IPv4-compatible ::a.b.c.d
        if zeros(0..<12) { return (b[12] != 0 || b[13] != 0 || b[14] != 0 || b[15] > 1) && embedded(12) }
        // IPv4-mapped ::ffff:a.b.c.d
        if zeros(0..<10), b[10] == 0xff, b[11] == 0xff { return embedded(12) }
        // NAT64 64:ff9b::a.b.c.d, and the local-use 64:ff9b:1::/48
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b {
            if zeros(4..<12) { return embedded(12) }
            if b[4] == 0, b[5] == 1 { return false }
        }
        // 6to4 2002:a.b.c.d::/48
        if b[0] == 0x20, b[1] == 0x02 { return embedded(2) }
        // discard-only 100::/64
        if b[0] == 0x01, zeros(1..<8) { return false }
        if b[0] == 0x20, b[1] == 0x01 {
            // Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID 2001:10::/28 and 2001:20::/28, documentation 2001:db8::/32
            if b[2] == 0, b[3] == 0 { return false }
            if b[2] == 0, b[3] == 2, b[4] == 0, b[5] == 0 { return false }
            if b[2] == 0, b[3] & 0xf0 == 0x10 || b[3] & 0xf0 == 0x20 { return false }
            if b[2] == 0x0d, b[3] == 0xb8 { return false }
        }
        // unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8
        if b[0] & 0xfe == 0xfc || b[0] == 0xfe && b[1] & 0x80 == 0x80 || b[0] == 0xff { return false }
        return true
    }
}
