import Testing
@testable import WebImageCurl

/// The address policy's judgement of addresses and hosts, without a connection.
@Suite struct ImageAddressPolicyTests {
    @Test(arguments: [
        // IPv4: loopback, private, shared, link-local, this network, multicast, reserved, broadcast, documentation
        "127.0.0.1", "127.255.255.254", "10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1",
        "100.127.255.255", "169.254.169.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "240.0.0.1",
        "255.255.255.255", "192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1",
        // IPv6: unspecified, loopback, unique-local, link-local, site-local, multicast, documentation, discard
        "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1", "2001:db8::1", "100::1",
        // IPv6 forms of refused IPv4 addresses: mapped, compatible, NAT64, 6to4; Teredo; local-use NAT64
        "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:c0a8:101::1",
        "2001::1", "64:ff9b:1::1", "fe80::1%lo",
    ])
    func internalAddressesAreNotPublic(address: String) {
        #expect(ImageAddressPolicy.isPublicAddress(address) == false)
        #expect(!ImageAddressPolicy.publicOnly.allowsConnection(to: address, forHost: "images.example.com"))
        #expect(ImageAddressPolicy.allowAll.allowsConnection(to: address, forHost: "images.example.com"))
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1",
        "192.169.0.1", "223.255.255.255", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8",
        "64:ff9b::808:808", "2002:808:808::1",
    ])
    func publicAddressesArePublic(address: String) {
        #expect(ImageAddressPolicy.isPublicAddress(address) == true)
        #expect(ImageAddressPolicy.publicOnly.allowsConnection(to: address, forHost: "images.example.com"))
    }

    @Test func textThatIsNoAddressIsNeitherPublicNorAllowed() {
        for text in ["", "localhost", "example.com", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "1.2.3.4.5", "::g"] {
            #expect(ImageAddressPolicy.isPublicAddress(text) == nil, "\(text)")
            #expect(!ImageAddressPolicy.allowAll.allowsConnection(to: text, forHost: "example.com"))
        }
    }

    @Test func hostListsMatchNamesWildcardsAndAddresses() {
        let policy = ImageAddressPolicy(allowedHosts: ["images.example.com", "*.cdn.example.net", "[2001:DB8::1]"])
        #expect(policy.allowsHost("images.example.com"))
        #expect(policy.allowsHost("IMAGES.Example.COM."), "case and a trailing dot do not matter")
        #expect(policy.allowsHost("a.cdn.example.net") && policy.allowsHost("a.b.cdn.example.net"))
        #expect(!policy.allowsHost("cdn.example.net"), "a wildcard covers names under it, not the name itself")
        #expect(!policy.allowsHost("evilcdn.example.net") && !policy.allowsHost("example.com"))
        #expect(policy.allowsHost("[2001:db8:0::1]") && policy.allowsHost("2001:db8::1"), "addresses compare canonically")

        let denying = ImageAddressPolicy(deniedHosts: ["metadata.internal", "169.254.169.254"])
        #expect(!denying.allowsHost("Metadata.Internal"))
        #expect(denying.allowsHost("images.example.com"))
        #expect(!denying.allowsConnection(to: "169.254.169.254", forHost: "harmless.example.com"), "a denied address, whatever the name")
        #expect(!denying.allowsEverything && ImageAddressPolicy.allowAll.allowsEverything)
    }

    @Test func internalHostsMayReachInternalAddressesUnderPublicOnly() {
        var policy = ImageAddressPolicy.publicOnly
        policy.internalHosts = ["images.internal"]
        #expect(policy.allowsConnection(to: "10.0.0.5", forHost: "images.internal"))
        #expect(!policy.allowsConnection(to: "10.0.0.5", forHost: "other.internal"))
        #expect(policy.allowsConnection(to: "8.8.8.8", forHost: "other.internal"))
        let refusal = policy.refusal(ofAddress: IPAddress("10.0.0.5")!, host: "Other.Internal.")
        #expect(refusal == "other.internal resolves to 10.0.0.5, which is not a public address")
    }
}
