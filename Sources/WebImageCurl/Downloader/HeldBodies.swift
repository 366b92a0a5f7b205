import WebImageCore

/// The bodies of finished transfers that Core is still decoding for the downloader's image callers, by request
/// identity. A data caller of the same request that comes meanwhile is served from the body at once, as it would
/// have joined the transfer a moment earlier, instead of starting a transfer of its own.
///
/// A body is held from the end of its transfer until every decode that received it is over (Core then cancels the
/// decode's data token, see ``ImageDownloadToken/holdBody(until:)``), and not a moment longer: a body is never
/// served to a request made after the decodes of its transfer have ended. Thread-safe.
final class HeldBodies: Sendable {
    private struct Held {
        let end: SharedDownload.End
        var holders: Int
    }

    private let held = Locked<[DownloadIdentity: Held]>([:])

    /// Holds the body `end` brought (its download's identity) for one more decode.
    func hold(_ end: SharedDownload.End) {
        held.withLock { held in
            let identity = end.download.identity
            if held[identity] != nil {
                held[identity]!.holders += 1
            } else {
                // Served later from another thread: the curl thread's gathering stays with the curl thread.
                let served = SharedDownload.End(
                    download: end.download, body: end.body, checked: end.checked, deliveries: CurlThreadDeliveries(batch: nil)
                )
                held[identity] = Held(end: served, holders: 1)
            }
        }
    }

    /// One decode of the body held for `identity` is over; the body goes when the last one is.
    func release(_ identity: DownloadIdentity) {
        held.withLock { held in
            guard let holders = held[identity]?.holders else { return }
            if holders > 1 {
                held[identity]!.holders = holders - 1
            } else {
                held[identity] = nil
            }
        }
    }

    /// The end of the finished transfer of `identity` whose body is still being decoded, if any.
    func end(for identity: DownloadIdentity) -> SharedDownload.End? {
        held.withLock { $0[identity]?.end }
    }

    /// The number of bodies held.
    var count: Int { held.withLock { $0.count } }
}
