import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// libcurl's process-wide state: `curl_global_init` runs exactly once per process, before the first handle is
/// made, and is never undone (other libraries in the process may use curl too).
///
/// Also ignores `SIGPIPE` for the process, as a write to a connection the server closed would otherwise kill it;
/// transfers set `CURLOPT_NOSIGNAL` so that curl installs no handlers of its own.
package enum CurlRuntime {
    private static let initialized: CURLcode = {
        signal(SIGPIPE, SIG_IGN)
        return curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Initialises libcurl once; thread-safe. Returns false when curl could not be initialised.
    @discardableResult
    package static func initialize() -> Bool {
        initialized == CURLE_OK
    }

    /// libcurl's version, as `curl_version_info` reports it (for example `8.5.0`).
    package static var version: String {
        initialize()
        guard let info = wi_curl_version_info(), let version = info.pointee.version else { return "unknown" }
        return String(cString: version)
    }

    /// libcurl's version as one number, `0xXXYYZZ` for version XX.YY.ZZ (for example `0x080100` for 8.1.0).
    package static var versionNumber: UInt32 {
        initialize()
        guard let info = wi_curl_version_info() else { return 0 }
        return UInt32(info.pointee.version_num)
    }

    /// Whether this libcurl was built with HTTP/2.
    package static var supportsHTTP2: Bool {
        initialize()
        guard let info = wi_curl_version_info() else { return false }
        return info.pointee.features & CURL_VERSION_HTTP2 != 0
    }
}
