#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``ImageCache`` keeps in a disk entry's extended data: the HTTP validators and the image's
/// ``Image/extendedObject``, as one JSON object (`entityTag`, `lastModified`, and `extendedObject` in base64), so
/// that either can be set without losing the other. An entry written with the validators alone reads the same, and
/// ``ImageRevalidation`` decodes from it as before.
struct ImageCacheEntryExtras: Codable, Equatable {
    var entityTag: String?
    var lastModified: String?
    var extendedObject: Data?

    private static let extendedObjectMarker = Data("\"extendedObject\"".utf8)

    init() {}

    /// The extras in `data`, an entry's extended data; empty when there is none or it is not this JSON.
    init(_ data: Data?) {
        guard let data, let decoded = try? JSONDecoder().decode(Self.self, from: data) else { return }
        self = decoded
    }

    /// The extended object in `data` alone; skips the JSON decode when the data names none, as most entries'
    /// extended data (validators only, read on every disk hit) does not.
    static func extendedObject(in data: Data?) -> Data? {
        guard let data, data.range(of: extendedObjectMarker) != nil else { return nil }
        return Self(data).extendedObject
    }

    /// The extended data to store: nil when there is nothing to keep.
    var encoded: Data? {
        guard entityTag != nil || lastModified != nil || extendedObject != nil else { return nil }
        return try? JSONEncoder().encode(self)
    }
}
