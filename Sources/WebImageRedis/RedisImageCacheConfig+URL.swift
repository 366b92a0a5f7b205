#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

extension RedisImageCacheConfig {
    /// A configuration for the server a `redis://[:PASSWORD@]HOST[:PORT][/DB]` URL names, with the defaults
    /// otherwise: port 6379 and database 0 when left out.
    ///
    /// - Throws: `invalidURL` for another scheme, a missing host, a port or database that is not a number, or
    ///   `rediss://`: the client library this build links has no TLS (see <doc:RunningAFleet>).
    public init(url string: String) throws(WebImageError) {
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw WebImageError(.invalidURL, "not a Redis URL: \(CredentialRedaction.redacting(string))")
        }
        guard scheme == "redis" else {
            let reason = scheme == "rediss" ? "TLS (rediss://) is not supported by this build's Redis client" : "the scheme must be redis://"
            throw WebImageError(.invalidURL, "\(reason): \(CredentialRedaction.redacting(string))")
        }
        guard let host = components.host, !host.isEmpty else {
            throw WebImageError(.invalidURL, "a Redis URL needs a host: \(CredentialRedaction.redacting(string))")
        }
        self.init(host: host, port: components.port ?? 6379)
        let path = components.path.drop { $0 == "/" }
        if !path.isEmpty {
            guard let database = Int(path), database >= 0 else {
                throw WebImageError(.invalidURL, "the database of a Redis URL is a number: \(CredentialRedaction.redacting(string))")
            }
            self.database = database
        }
        if let password = components.password, !password.isEmpty {
            self.password = password.removingPercentEncoding ?? password
        }
    }
}
