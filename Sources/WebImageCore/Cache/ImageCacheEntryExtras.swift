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

    /// The key that marks JSON holding an extended object. A static string, not a static `Data`: the leak checker
    /// cannot follow a lazily made global's `Data` storage and reports it.
    private static let extendedObjectMarker: StaticString = "\"extendedObject\""

    init() {}

    /// The extras in `data`, an entry's extended data; empty when there is none or it is not this JSON.
    init(_ data: Data?) {
        guard let data, let decoded = try? JSONDecoder().decode(Self.self, from: data) else { return }
        self = decoded
    }

    /// The extended object in `data` alone; skips the JSON decode when the data names none, as most entries'
    /// extended data (validators only, read on every disk hit) does not.
    static func extendedObject(in data: Data?) -> Data? {
        guard let data, names(extendedObjectMarker, in: data) else { return nil }
        return Self(data).extendedObject
    }

    /// Whether `data` holds the bytes of `marker` anywhere.
    private static func names(_ marker: StaticString, in data: Data) -> Bool {
        let needle = UnsafeRawBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        return data.withUnsafeBytes { haystack in
            guard haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count)
            where haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle) {
                return true
            }
            return false
        }
    }

    /// The extended data to store: nil when there is nothing to keep.
    var encoded: Data? {
        guard entityTag != nil || lastModified != nil || extendedObject != nil else { return nil }
        return try? JSONEncoder().encode(self)
    }
}
