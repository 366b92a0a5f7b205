#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImageCore

/// The keys one process has claimed across the fleet, each with the token its claim holds on the server and the
/// moment the server lets it expire, so that the store of a key releases the claim it made and no other.
///
/// A claim whose load never stores (it failed, or stores elsewhere) is forgotten once expired: the map keeps no
/// more than the claims of the last time to live, pruned when it grows. Thread-safe.
final class FleetClaims: Sendable {
    private struct Claim {
        var token: String
        var expires: ContinuousClock.Instant
    }

    /// Unique to this cache object: the process's tokens cannot match another's.
    private let origin = UUID().uuidString
    private let state = Locked((next: 0, held: [String: Claim]()))

    /// A new token for a claim; not yet held.
    func makeToken() -> String {
        let number = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        return "\(origin):\(number)"
    }

    /// Records that this process holds the claim on `key` with `token`, until `expires`.
    func hold(_ key: String, token: String, expires: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        state.withLock { state in
            if state.held.count >= 1024 { state.held = state.held.filter { $0.value.expires > now } }
            state.held[key] = Claim(token: token, expires: expires)
        }
    }

    /// Whether this process holds an unexpired claim on `key`.
    func holds(_ key: String) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let claim = state.held[key] else { return false }
            if claim.expires > now { return true }
            state.held[key] = nil
            return false
        }
    }

    /// Takes the token of this process's claim on `key`, if it holds one: the caller releases it.
    func take(_ key: String) -> String? {
        state.withLock { $0.held.removeValue(forKey: key)?.token }
    }
}
