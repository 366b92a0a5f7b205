import WebImageCore

/// The header fields a downloader sends with every request, with their form in a ``DownloadIdentity``, which
/// is made once per change rather than once per request. A plain value: the downloader keeps it behind its lock.
struct DownloaderHeaderFields {
    /// The fields, in the order they are sent.
    private(set) var headers: [HTTPHeader]
    /// ``headers`` as ``DownloadIdentity/normalized(_:)`` makes them.
    private(set) var normalized: [HTTPHeader]
    /// The number of changes so far: image callers share a decode in Core only within one version, as their
    /// requests are made when the shared load starts.
    private(set) var version: UInt64 = 0

    init(_ headers: [HTTPHeader]) {
        self.headers = headers
        normalized = DownloadIdentity.normalized(headers)
    }

    /// Replaces every field named `name` (in any case) with one holding `value`, placed last, as
    /// ``WebImageCore/ImageRequest/setValue(_:forHeader:)`` does; nil removes them.
    mutating func setValue(_ value: String?, forHeader name: String) {
        headers.removeAll { $0.hasName(name) }
        if let value { headers.append(HTTPHeader(name: name, value: value)) }
        normalized = DownloadIdentity.normalized(headers)
        version += 1
    }
}
