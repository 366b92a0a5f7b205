import WebImageCore

extension ImageDownloader {
    /// The header fields sent with every request from now on, in order: ``ImageDownloaderConfig/httpHeaders`` as
    /// changed since by ``setValue(_:forHeader:)``.
    ///
    /// Thread-safe: a snapshot taken under the downloader's lock.
    public var httpHeaders: [HTTPHeader] {
        headerFields.withLock { $0.headers }
    }

    /// The value of the first header field named `name` (compared without regard to case) that requests started
    /// from now on carry, as SDWebImage's `valueForHTTPHeaderField:`; nil when there is none.
    ///
    /// Thread-safe.
    public func value(forHeader name: String) -> String? {
        headerFields.withLock { $0.headers.value(named: name) }
    }

    /// Sets a header field sent with every request from now on, as SDWebImage's `setValue:forHTTPHeaderField:`.
    ///
    /// ```swift
    /// downloader.setValue("Bearer \(token)", forHeader: "Authorization")
    /// downloader.setValue(nil, forHeader: "User-Agent")   // sends none of the downloader's
    /// ```
    ///
    /// Every field named `name`, in any case, is replaced by one with `value`, sent after the others; nil removes
    /// them. The request modifier of a load still runs after, and may change the field again.
    ///
    /// Thread-safe; may be called at any time, from any thread. The change applies to requests made after this
    /// call returns: a request made before it, waiting or under way, keeps the fields it was made with, and a
    /// caller made after the change never joins a transfer, or a shared decode, made with the old fields.
    public func setValue(_ value: String?, forHeader name: String) {
        headerFields.withLock { $0.setValue(value, forHeader: name) }
    }

    /// The version of the fields: image callers of different versions never share a decode.
    var headerVersion: UInt64 {
        headerFields.withLock { $0.version }
    }

    /// The downloader's fields and their ``DownloadIdentity`` form, read together.
    var identityDefaults: (headers: [HTTPHeader], normalized: [HTTPHeader]) {
        headerFields.withLock { ($0.headers, $0.normalized) }
    }
}
