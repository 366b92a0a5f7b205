import Foundation
import Testing
import WebImageCodecs
import WebImageCore
@testable import WebImageCurl
import WebImageTestSupport

/// The address policy on real transfers to the loopback server: the addresses connected to after DNS, every form of
/// an IPv4 address, IPv6 literals, and each redirect hop.
@Suite struct ImageDownloaderAddressPolicyTests {
    private let photo = "/image/jpeg/photo.jpg"

    private func downloader(_ policy: ImageAddressPolicy) -> ImageDownloader {
        var config = ImageDownloaderConfig()
        config.addressPolicy = policy
        config.connectTimeout = 5
        return ImageDownloader(config: config, coder: ImageCoderRegistry.shared)
    }

    private func expectRefused(_ result: Result<DownloadedImage, WebImageError>, _ url: String, by downloader: ImageDownloader) {
        guard case .failure(let error) = result else {
            Issue.record("\(url) loaded under a policy that refuses it")
            return
        }
        #expect(error.code == .addressRefused, "\(url): \(error)")
        #expect(!downloader.shouldBlockFailedURL(URL(string: url)!, error: error), "a refusal is not put on the failed list")
    }

    @Test func publicOnlyRefusesTheLoopbackServerHoweverItIsNamed() async throws {
        try await withTestHTTPServer { server in
            let downloader = downloader(.publicOnly)
            defer { downloader.invalidate() }
            let port = server.port
            let forms = [
                "127.0.0.1", "localhost", "[::1]", "[::ffff:127.0.0.1]",
                "2130706433", "0177.0.0.1", "0x7f000001", "0x7f.1", "127.1",
            ]
            for host in forms {
                let url = "http://\(host):\(port)\(photo)"
                expectRefused(await download(downloader, URL(string: url)!), url, by: downloader)
            }
            #expect(server.totalRequestCount == 0, "nothing reached the server")

            let allowing = self.downloader(.allowAll)
            defer { allowing.invalidate() }
            let loaded = await download(allowing, server.url(photo))
            #expect((try? loaded.get())?.image.pixelSize == PixelSize(width: 320, height: 240), "the default allows it")
        }
    }

    @Test func aRedirectToAnInternalAddressIsRefusedAtItsHop() async throws {
        try await withTestHTTPServer { server in
            var policy = ImageAddressPolicy.publicOnly
            policy.internalHosts = ["localhost"]
            let downloader = downloader(policy)
            defer { downloader.invalidate() }
            let base = "http://localhost:\(server.port)"
            let direct = await download(downloader, URL(string: base + photo)!)
            #expect((try? direct.get()) != nil, "an internal host reaches its internal address: \(direct)")
            #expect(server.requestCount(forPath: photo) == 1)

            let target = TestHTTPRequest.percentEncoded(server.url(photo).absoluteString)
            let redirecting = base + "/redirect/1?to=\(target)"
            expectRefused(await download(downloader, URL(string: redirecting)!), redirecting, by: downloader)
            #expect(server.requestCount(forPath: "/redirect/1") == 1, "the first hop was allowed")
            #expect(server.requestCount(forPath: photo) == 1, "the hop to 127.0.0.1 never reached the server")
        }
    }

    @Test func hostListsApplyToEveryHop() async throws {
        try await withTestHTTPServer { server in
            let toLocalhost = "/redirect/2?to=" + TestHTTPRequest.percentEncoded("http://localhost:\(server.port)\(photo)")
            let denying = downloader(ImageAddressPolicy(deniedHosts: ["LOCALHOST."]))
            let allowing = downloader(ImageAddressPolicy(allowedHosts: ["127.0.0.1"]))
            defer {
                denying.invalidate()
                allowing.invalidate()
            }
            for downloader in [denying, allowing] {
                let url = server.url(toLocalhost).absoluteString
                expectRefused(await download(downloader, URL(string: url)!), url, by: downloader)
            }
            #expect(server.requestCount(forPath: photo) == 0, "neither reached the denied host")
            #expect(server.requestCount(forPath: "/redirect/1") == 2, "both followed the redirects on the allowed host")

            let direct = await download(allowing, server.url(photo))
            #expect((try? direct.get()) != nil, "an allowed host loads: \(direct)")
            let denied = await download(denying, URL(string: "http://localhost:\(server.port)\(photo)")!)
            expectRefused(denied, "http://localhost", by: denying)
            let byAddress = downloader(ImageAddressPolicy(deniedHosts: ["127.0.0.1"]))
            defer { byAddress.invalidate() }
            let decimal = "http://2130706433:\(server.port)\(photo)"
            expectRefused(await download(byAddress, URL(string: decimal)!), decimal, by: byAddress)
            #expect(server.requestCount(forPath: photo) == 1)
        }
    }
}
