import Foundation
import Synchronization
import WebImage

/// The loads that recent queries asked for, so that a warm request is not parsed again: the query string and the
/// `Accept` field map to the source's URL and the load's context.
///
/// Parsing a query (its parameters, the source's URL, the context) costs more than the rest of the route's work for
/// a variant already in memory. Queries repeat on a thumbnail server: a page asks for the same few sizes of the same
/// images. Bounded by two generations of `capacity` entries: found in the older, an entry moves to the newer; when
/// the newer is full it becomes the older and the older is dropped, so what is asked again stays. Only queries the
/// route accepts are kept. Safe from any thread.
final class ParsedQueries: Sendable {
    /// What a query asks for.
    struct Load: Sendable {
        var url: URL
        var context: ImageContext
    }

    private struct Generations {
        var newer: [String: Load] = [:]
        var older: [String: Load] = [:]
    }

    private let capacity: Int
    private let generations = Mutex(Generations())

    /// A memo of at most `2 * capacity` queries.
    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// The key of a query with the `Accept` field the format is negotiated from.
    static func key(query: String, accept: String) -> String {
        accept.isEmpty ? query : query + "\n" + accept
    }

    /// What `key` asked for when it was last kept, if it still is.
    func load(forKey key: String) -> Load? {
        generations.withLock { generations in
            if let load = generations.newer[key] { return load }
            guard let load = generations.older.removeValue(forKey: key) else { return nil }
            Self.insert(load, forKey: key, into: &generations, capacity: capacity)
            return load
        }
    }

    /// Keeps what `key` asks for.
    func keep(_ load: Load, forKey key: String) {
        generations.withLock { Self.insert(load, forKey: key, into: &$0, capacity: capacity) }
    }

    private static func insert(_ load: Load, forKey key: String, into generations: inout Generations, capacity: Int) {
        if generations.newer.count >= capacity, generations.newer[key] == nil {
            generations.older = generations.newer
            generations.newer = [:]
        }
        generations.newer[key] = load
    }
}
