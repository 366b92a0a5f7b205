#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension RedisImageCacheConfig {
    /// A configuration for the server a `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` URL names, with the defaults
    /// otherwise: port 6379 and database 0 when left out. `rediss://` speaks TLS, trusting the system's store
    /// (``RedisTLSOptions``).
    ///
    /// - Throws: `invalidURL` for another scheme, a missing host, a port out of range, or a database that is not a
    ///   number.
    public init(url string: String) throws(WebImageError) {
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw WebImageError(.invalidURL, "not a Redis URL: \(CredentialRedaction.redacting(string))")
        }
        guard scheme == "redis" || scheme == "rediss" else {
            throw WebImageError(.invalidURL, "the scheme must be redis:// or rediss://: \(CredentialRedaction.redacting(string))")
        }
        guard let host = components.host, !host.isEmpty else {
            throw WebImageError(.invalidURL, "a Redis URL needs a host: \(CredentialRedaction.redacting(string))")
        }
        let port = components.port ?? 6379
        guard (1...65_535).contains(port) else {
            throw WebImageError(.invalidURL, "the port of a Redis URL is 1 to 65535: \(CredentialRedaction.redacting(string))")
        }
        self.init(host: host, port: port)
        if scheme == "rediss" { tls = RedisTLSOptions() }
        let path = components.path.drop { $0 == "/" }
        if !path.isEmpty {
            guard let database = Int(path), database >= 0 else {
                throw WebImageError(.invalidURL, "the database of a Redis URL is a number: \(CredentialRedaction.redacting(string))")
            }
            self.database = database
        }
        // URLComponents decodes the user information once; decoding it again would turn "%2541" into "A".
        if let password = components.password, !password.isEmpty {
            self.password = password
            if let user = components.user, !user.isEmpty { username = user }
        }
    }
}
