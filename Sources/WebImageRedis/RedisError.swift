import CHiredis
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// A failure of a Redis connection or command, with hiredis's message or the server's.
///
/// The connection's own error type; the cache wraps it in a ``WebImageError`` (see ``webImageError(key:)``).
package struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Sendable, Hashable {
        /// Nothing listens on the address: the server is not running.
        case connectionRefused
        /// The connect, or the reply to a command, took longer than its timeout.
        case timedOut
        /// The connection was open and broke: the server closed it, or the network reset it.
        case connectionLost
        /// The connection could not be made for another reason (a name that does not resolve, say).
        case cannotConnect
        /// The server answered the command with an error reply; the message is the server's.
        case server
        /// The server's reply is not what the command expects, or not Redis's protocol.
        case protocolError
        /// No connection of the pool became free in time.
        case poolExhausted
        /// The TLS session could not be set up: its handshake failed, or the server's certificate did not verify.
        case tls
    }

    /// What went wrong.
    package var kind: Kind
    /// hiredis's message, or the server's for ``Kind/server``.
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { "\(kind): \(message)" }

    /// Whether the connection that saw this error can no longer be used. A server's error reply leaves it usable.
    package var breaksConnection: Bool {
        switch kind {
        case .server, .poolExhausted: false
        case .connectionRefused, .timedOut, .connectionLost, .cannotConnect, .protocolError, .tls: true
        }
    }

    /// The error of a TLS session that could not be opened: by the system error behind it, or ``Kind/tls`` when
    /// there is none (a certificate that does not verify).
    static func tls(message: String, osError: Int32) -> RedisError {
        switch osError {
        case 0: RedisError(.tls, message)
        case ECONNREFUSED: RedisError(.connectionRefused, message)
        case ETIMEDOUT, EAGAIN: RedisError(.timedOut, message)
        case ECONNRESET, EPIPE, ENOTCONN, ECONNABORTED: RedisError(.connectionLost, message)
        default: RedisError(.cannotConnect, message)
        }
    }

    /// The one mapping from a failed hiredis context to an error: `flags` is the context's `err`, `osError` the
    /// errno the call left. A context that failed is unusable from then on.
    static func context(flags: Int32, message: String, osError: Int32) -> RedisError {
        let text = message.isEmpty ? "hiredis error \(flags)" : message
        switch flags {
        case REDIS_ERR_EOF:
            return RedisError(.connectionLost, text)
        case REDIS_ERR_PROTOCOL:
            return RedisError(.protocolError, text)
        case REDIS_ERR_IO:
            switch osError {
            case ECONNREFUSED: return RedisError(.connectionRefused, text)
            case ETIMEDOUT, EAGAIN, EINPROGRESS: return RedisError(.timedOut, text)
            case ECONNRESET, EPIPE, ENOTCONN, ECONNABORTED: return RedisError(.connectionLost, text)
            case EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: return RedisError(.cannotConnect, text)
            default: return RedisError(.connectionLost, text)
            }
        default:
            // REDIS_ERR_OTHER: a name that does not resolve, among others.
            return RedisError(.cannotConnect, text)
        }
    }

    /// The library's error for this failure on `key` (already prefixed, or nil for a connection's own work).
    package func webImageError(key: String?) -> WebImageError {
        let subject = key.map { " (Redis key \($0))" } ?? ""
        switch kind {
        case .connectionRefused, .cannotConnect:
            return WebImageError(.cannotConnect, "cannot connect to Redis: \(message)\(subject)")
        case .timedOut:
            return WebImageError(.timedOut, "Redis did not answer in time: \(message)\(subject)")
        case .connectionLost:
            return WebImageError(.connectionLost, "the connection to Redis was lost: \(message)\(subject)")
        case .server:
            return WebImageError(.badServerResponse, "Redis answered with an error: \(message)\(subject)")
        case .protocolError:
            return WebImageError(.badServerResponse, "Redis's reply is not valid: \(message)\(subject)")
        case .poolExhausted:
            return WebImageError(.timedOut, "no Redis connection became free in time: \(message)\(subject)")
        case .tls:
            return WebImageError(.tlsFailure, "TLS with Redis failed: \(message)\(subject)")
        }
    }
}
