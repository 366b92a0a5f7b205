import CRawCurl
import Foundation
import WebImage

/// The baseline client: one multi handle of libcurl's, called directly through the C target.
///
/// `@unchecked Sendable`: the handle is used by one benchmark body at a time (the runner calls a benchmark's body
/// from one thread, one iteration after another) and is destroyed only by ``close()`` in the teardown, after the
/// last iteration.
public final class RawCurlSession: @unchecked Sendable {
    private var session: OpaquePointer?

    /// Connect and total timeouts, in milliseconds, as the downloader's defaults.
    public static let connectTimeoutMilliseconds = 10_000
    public static let totalTimeoutMilliseconds = 15_000

    /// - Parameter headers: Header fields sent with every transfer: the downloader's, so that both sides send the
    ///   same requests.
    public init(maxHostConnections: Int, maxTotalConnections: Int, headers: [HTTPHeader]) {
        guard let session = raw_curl_session_create(maxHostConnections, maxTotalConnections) else {
            fatalError("libcurl could not make a multi handle")
        }
        self.session = session
        let lines = CStringList(lines: headers.map { "\($0.name): \($0.value)" })
        let set = lines.withPointers { pointers, count in raw_curl_session_set_headers(session, pointers, Int32(count)) }
        guard set == 0 else { fatalError("libcurl could not keep the header lines") }
    }

    /// Fetches every URL with at most `maxConcurrent` in flight; fails the benchmark when any transfer fails.
    public func fetch(_ urls: CStringList, maxConcurrent: Int) {
        let result = urls.withPointers { pointers, count in
            raw_curl_fetch(
                session, pointers, Int32(count), Int32(maxConcurrent),
                Self.connectTimeoutMilliseconds, Self.totalTimeoutMilliseconds
            )
        }
        guard result.failures == 0 else {
            fatalError("the raw curl baseline failed \(result.failures) of \(urls.count) transfers")
        }
    }

    public func close() {
        raw_curl_session_destroy(session)
        session = nil
    }
}

/// URL strings copied to C once, before they are timed, so that neither side pays for making its input.
///
/// `@unchecked Sendable`: the strings are written only in `init` and freed only in `deinit`.
public final class CStringList: @unchecked Sendable {
    private let strings: [UnsafePointer<CChar>?]

    public convenience init(_ urls: [URL]) {
        self.init(lines: urls.map(\.absoluteString))
    }

    public init(lines: [String]) {
        strings = lines.map { line in strdup(line).map { UnsafePointer($0) } }
        guard strings.allSatisfy({ $0 != nil }) else { fatalError("out of memory copying the strings") }
    }

    public var count: Int { strings.count }

    public func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int) -> R) -> R {
        strings.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }

    deinit {
        for string in strings { free(UnsafeMutablePointer(mutating: string)) }
    }
}
