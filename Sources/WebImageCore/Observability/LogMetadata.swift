#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// The metadata values the library's log lines share, in one form for the manager, the cache and the downloader:
/// URLs and keys with their credentials redacted, durations in milliseconds.
package enum LogMetadata {
    /// `url` with its user information and the credentials in its query redacted.
    package static func url(_ url: URL) -> Logger.MetadataValue {
        .string(CredentialRedaction.redacting(url))
    }

    /// A cache key (usually a URL's string) with its credentials redacted.
    package static func key(_ key: String) -> Logger.MetadataValue {
        .string(CredentialRedaction.redacting(key))
    }

    /// `duration` in milliseconds, to the microsecond.
    package static func milliseconds(_ duration: Duration) -> Logger.MetadataValue {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return .string(String(format: "%.3f", value))
    }

    /// `logger` when it writes lines of `level`, else nil: read once, so that a silent logger costs a nil check.
    package static func writing(_ logger: Logger?, at level: Logger.Level) -> Logger? {
        guard let logger, logger.logLevel <= level else { return nil }
        return logger
    }
}
