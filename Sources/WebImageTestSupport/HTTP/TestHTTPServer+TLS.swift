#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOSSL

extension TestHTTPServer {
    /// How a test server speaks.
    ///
    /// With TLS the server presents the committed self-signed certificate for `127.0.0.1` and `localhost`
    /// (`Tests/Fixtures/tls`, made by `Scripts/make-test-certificate.sh`). A client that verifies certificates
    /// refuses it, which is what a test of verification needs; a test that wants the transfer to succeed turns
    /// verification off for its requests.
    public enum TLSMode: Sendable, Hashable {
        /// Plain-text HTTP/1.1 at `http://127.0.0.1:PORT`.
        case off
        /// HTTPS with HTTP/1.1 only: ALPN offers `http/1.1`.
        case http1
        /// HTTPS whose ALPN offers `h2` and `http/1.1`: a client that speaks HTTP/2 gets it, one stream per
        /// request over one connection; any other gets HTTP/1.1.
        case http2

        /// `http` or `https`.
        public var scheme: String { self == .off ? "http" : "https" }

        /// The ALPN protocols the server offers, most preferred first; empty without TLS.
        var applicationProtocols: [String] {
            switch self {
            case .off: []
            case .http1: ["http/1.1"]
            case .http2: ["h2", "http/1.1"]
            }
        }

        /// The server's TLS context, nil without TLS. Reads the certificate and key from the fixtures.
        func makeSSLContext() throws(TestHTTPServerError) -> NIOSSLContext? {
            guard self != .off else { return nil }
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(TestHTTPServer.certificateURL.path)
                let key = try NIOSSLPrivateKey(file: TestHTTPServer.privateKeyURL.path, format: .pem)
                var configuration = TLSConfiguration.makeServerConfiguration(
                    certificateChain: chain.map { NIOSSLCertificateSource.certificate($0) }, privateKey: .privateKey(key))
                configuration.applicationProtocols = applicationProtocols
                // A close waits this long for the client's close_notify; an idle client keeping its connection
                // for reuse never sends one, and shutdown should not wait the default five seconds for it.
                configuration.shutdownTimeout = .milliseconds(100)
                return try NIOSSLContext(configuration: configuration)
            } catch {
                throw TestHTTPServerError("tls", error)
            }
        }
    }

    /// The PEM file of the self-signed certificate a TLS server presents; a client may trust it to verify the
    /// server (its subjectAltName holds IP 127.0.0.1 and DNS localhost).
    public static var certificateURL: URL { Fixtures.url("tls/localhost.pem") }

    /// The PEM file of the certificate's private key.
    static var privateKeyURL: URL { Fixtures.url("tls/localhost-key.pem") }
}
