/// How a ``RedisImageCache`` speaks TLS to its server (Redis's `tls-port`): what to trust, the name to verify,
/// and a client certificate for servers that ask for one.
///
/// ```swift
/// var config = try RedisImageCacheConfig(url: "rediss://cache.internal:6380")   // TLS, the system's trust store
/// config.tls?.trustedCertificatesFile = "/etc/redis/ca.pem"
/// ```
///
/// Debian's hiredis has no TLS of its own: each connection's session is OpenSSL's, run on a thread of its own that
/// hiredis reaches through a local socket pair. The certificate and name are checked during the connect; a server
/// whose certificate does not verify fails it with `tlsFailure`.
public struct RedisTLSOptions: Sendable, Equatable {
    /// A PEM file of the certificates to trust (a CA, or the server's own self-signed certificate); nil, the
    /// default, trusts the system's store.
    public var trustedCertificatesFile: String?
    /// The name sent to the server (SNI) and checked against its certificate: a host name, or an IP address
    /// checked against the certificate's addresses; nil, the default, uses the configuration's host.
    public var serverName: String?
    /// Whether the server's certificate and name are verified; true by default. Turn it off for tests only: a
    /// session that verifies nothing can be intercepted.
    public var verifiesCertificate = true
    /// A PEM file of the client certificate (and its chain) for servers that authenticate clients
    /// (`tls-auth-clients yes`); nil, the default, sends none.
    public var clientCertificateFile: String?
    /// The PEM file of the client certificate's private key.
    public var clientPrivateKeyFile: String?

    /// TLS that trusts the system's store and verifies the server's certificate and name.
    public init() {}
}
