#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The fleet claims of one process, by key: the claim being asked for or held, the token it holds on the server,
/// and the loads of this process that looked the key up while it was, so that the claim is passed only when the
/// last of them ends without storing, and released by the store of the key.
///
/// A process asks for a key's claim once at a time: a second look-up while the first is in flight, or while the
/// claim is held, is a plain read (it neither claims nor waits on its own claim). A claim whose loads never end
/// (a caller that never says so) is forgotten once expired: the map keeps no more than the claims of the last
/// time to live, pruned when it grows. Thread-safe.
final class FleetClaims: Sendable {
    /// What a look-up that may claim does.
    enum Start: Equatable {
        /// Ask for the claim with this token.
        case claim(token: String)
        /// Read only: this process already asks for or holds the claim.
        case read
    }

    private struct Entry {
        /// Nil while the claim is asked for.
        var token: String?
        var expires: ContinuousClock.Instant
        /// The loads of this process that looked the key up and have not ended.
        var loads: Int
    }

    /// Unique to this cache object: the process's tokens cannot match another's.
    private let origin = UUID().uuidString
    private let state = Locked((next: 0, entries: [String: Entry]()))

    /// The start of a look-up of `key` by a load.
    func start(_ key: String) -> Start {
        let now = ContinuousClock.now
        return state.withLock { state in
            if var entry = state.entries[key], entry.token == nil || entry.expires > now {
                entry.loads += 1
                state.entries[key] = entry
                return .read
            }
            if state.entries.count >= 1024 {
                state.entries = state.entries.filter { $0.value.token == nil || $0.value.expires > now }
            }
            state.next += 1
            let token = "\(origin):\(state.next)"
            state.entries[key] = Entry(token: nil, expires: now, loads: 1)
            return .claim(token: token)
        }
    }

    /// The look-up that asked for the claim did not get it (the bytes were there, another process holds it, it
    /// was passed, or the server failed): this process no longer asks for it.
    func notClaimed(_ key: String) {
        state.withLock { state in
            if state.entries[key]?.token == nil { state.entries[key] = nil }
        }
    }

    /// The claim asked for is held with `token` until `expires`. False when every load that looked the key up has
    /// ended meanwhile: the caller passes the claim at once.
    func claimed(_ key: String, token: String, expires: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard var entry = state.entries[key], entry.loads > 0 else {
                state.entries[key] = nil
                return false
            }
            entry.token = token
            entry.expires = expires
            state.entries[key] = entry
            return true
        }
    }

    /// A load that waited took the claim over with `token` (its holder was gone).
    func tookOver(_ key: String, token: String, expires: ContinuousClock.Instant) {
        state.withLock { state in
            var entry = state.entries[key] ?? Entry(token: nil, expires: expires, loads: 0)
            entry.token = token
            entry.expires = expires
            entry.loads += 1
            state.entries[key] = entry
        }
    }

    /// The token of the claim on `key` for its store to release; the claim is this process's no more.
    func takeForStore(_ key: String) -> String? {
        state.withLock { state in
            guard let token = state.entries[key]?.token else { return nil }
            state.entries[key] = nil
            return token
        }
    }

    /// A load that looked `key` up has ended: the token to pass when it was the last and the claim is held.
    func loadEnded(_ key: String) -> String? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            entry.loads = max(0, entry.loads - 1)
            guard entry.loads == 0, let token = entry.token else {
                state.entries[key] = entry
                return nil
            }
            state.entries[key] = nil
            return token
        }
    }
}
