import CCurl
import WebImageCore

/// A request's header lines as the `curl_slist` that `CURLOPT_HTTPHEADER` takes, freed with the last reference.
///
/// The engine's thread keeps the last list it made and hands it to the next transfer whose headers are the same (a
/// downloader sends the same `Accept` and `User-Agent` with every request), so that a burst of transfers builds it
/// once. curl only reads the list, and each transfer holds a reference for as long as its handle may use it.
///
/// Curl thread only.
final class CurlHeaderList {
    private let headers: [HTTPHeader]
    /// The list; nil only when `headers` is empty.
    let list: UnsafeMutablePointer<curl_slist>?

    /// Builds the list, or returns nil when curl could not allocate a line.
    init?(_ headers: [HTTPHeader]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers {
            // "Name:" with nothing after it removes a header curl would send; "Name;" sends it empty.
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            guard let grown = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                return nil
            }
            list = grown
        }
        self.headers = headers
        self.list = list
    }

    deinit {
        curl_slist_free_all(list)
    }

    /// Whether this list sends exactly `other`, in the same order.
    /// Usually both come from the downloader's configured headers and share their storage, which makes this one
    /// comparison of addresses.
    func sends(_ other: [HTTPHeader]) -> Bool {
        headers == other
    }
}
