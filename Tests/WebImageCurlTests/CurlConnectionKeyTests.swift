import Testing
@testable import WebImageCurl

@Suite struct CurlConnectionKeyTests {
    private let direct = CurlProxyEnvironment { _ in nil }

    private func proxied(_ variables: [String: String]) -> CurlProxyEnvironment {
        CurlProxyEnvironment { variables[$0] }
    }

    @Test func keysByHostAndPortWhateverTheScheme() {
        #expect(CurlConnectionKey(url: "http://Example.COM/a.png", proxy: direct) == .origin(host: "example.com", port: 80))
        #expect(CurlConnectionKey(url: "https://example.com/a.png", proxy: direct) == .origin(host: "example.com", port: 443))
        #expect(CurlConnectionKey(url: "HTTPS://example.com:80?x=1", proxy: direct) == .origin(host: "example.com", port: 80))
        #expect(CurlConnectionKey(url: "http://user:p%40ss@cdn.example:8080/#top", proxy: direct) == .origin(host: "cdn.example", port: 8080))
        #expect(CurlConnectionKey(url: "http://[::1]:9000/a", proxy: direct) == .origin(host: "::1", port: 9000))
        #expect(CurlConnectionKey(url: "https://[::1]/a", proxy: direct) == .origin(host: "::1", port: 443))
        #expect(CurlConnectionKey(url: "http://127.0.0.1:81", proxy: direct) == .origin(host: "127.0.0.1", port: 81))
    }

    @Test func urlsThatOpenNoConnectionAreNotCounted() {
        #expect(CurlConnectionKey(url: "file:///tmp/a.png", proxy: direct) == .uncounted)
        #expect(CurlConnectionKey(url: "ftp://example.com/a.png", proxy: direct) == .uncounted)
        #expect(CurlConnectionKey(url: "http://:8080/a.png", proxy: direct) == .uncounted)
        #expect(CurlConnectionKey(url: "not a url", proxy: direct) == .uncounted)
    }

    @Test func plainHTTPThroughAnHTTPProxyCountsAgainstTheProxy() {
        let proxy = proxied(["http_proxy": "http://proxy.local:3128"])
        #expect(CurlConnectionKey(url: "http://a.example/x", proxy: proxy) == .proxy)
        #expect(CurlConnectionKey(url: "http://b.example:8080/x", proxy: proxy) == .proxy)
        // HTTPS tunnels through the proxy and is pooled by origin.
        #expect(CurlConnectionKey(url: "https://a.example/x", proxy: proxy) == .origin(host: "a.example", port: 443))
        #expect(CurlConnectionKey(url: "http://a.example/x", proxy: proxied(["all_proxy": "proxy.local:3128"])) == .proxy)
        #expect(CurlConnectionKey(url: "http://a.example/x", proxy: proxied(["ALL_PROXY": "https://proxy.local"])) == .proxy)
    }

    @Test func proxiesThatPoolByOriginAreIgnored() {
        let origin = CurlConnectionKey.origin(host: "a.example", port: 80)
        // libcurl reads only the lower-case http_proxy; an empty value or a SOCKS proxy pools by origin.
        #expect(CurlConnectionKey(url: "http://a.example/", proxy: proxied(["HTTP_PROXY": "http://proxy.local"])) == origin)
        #expect(CurlConnectionKey(url: "http://a.example/", proxy: proxied(["http_proxy": ""])) == origin)
        #expect(CurlConnectionKey(url: "http://a.example/", proxy: proxied(["http_proxy": "SOCKS5h://proxy.local"])) == origin)
    }

    @Test func noProxyExemptsHostsAndTheirSubdomains() {
        let proxy = proxied(["http_proxy": "http://proxy.local:3128", "no_proxy": "example.com, .internal,10.0.0.7 10.1.0.0/16"])
        #expect(proxy.proxiesPlainHTTP(to: "example.com") == false)
        #expect(proxy.proxiesPlainHTTP(to: "img.example.com") == false)
        #expect(proxy.proxiesPlainHTTP(to: "notexample.com") == true)
        #expect(proxy.proxiesPlainHTTP(to: "cache.internal") == false)
        #expect(proxy.proxiesPlainHTTP(to: "10.0.0.7") == false)
        // Addresses match only themselves; a range is not understood and exempts nothing.
        #expect(proxy.proxiesPlainHTTP(to: "1.10.0.0.7") == true)
        #expect(proxy.proxiesPlainHTTP(to: "10.1.2.3") == true)
        #expect(proxied(["http_proxy": "proxy.local", "NO_PROXY": "*"]).proxiesPlainHTTP(to: "a.example") == false)
        // `*` exempts everything only on its own, as libcurl reads it.
        #expect(proxied(["http_proxy": "proxy.local", "no_proxy": "*, a.example"]).proxiesPlainHTTP(to: "b.example") == true)
    }
}
