#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageCache {
    /// The HTTP validators kept in the extended data of `key`'s disk entry (written by
    /// ``setRevalidation(_:forKey:)``); nil when the entry has none or holds other extended data.
    ///
    /// Reads on the IO queue and waits (inline when already on it).
    public func revalidation(forKey key: String) -> ImageRevalidation? {
        guard let data = diskCache.extendedData(forKey: key) else { return nil }
        return try? JSONDecoder().decode(ImageRevalidation.self, from: data)
    }

    /// Keeps `revalidation` in the extended data of `key`'s disk entry, as JSON, on the IO queue, beside the
    /// entry's ``Image/extendedObject``; does nothing when the entry does not exist. Returns at once;
    /// `completion` runs on the IO queue once that is done.
    public func setRevalidation(_ revalidation: ImageRevalidation, forKey key: String, completion: (@Sendable () -> Void)? = nil) {
        diskCache.perform { store in
            var extras = ImageCacheEntryExtras(store.extendedData(forKey: key))
            extras.entityTag = revalidation.entityTag
            extras.lastModified = revalidation.lastModified
            try? store.setExtendedData(extras.encoded, forKey: key)
            completion?()
        }
    }
}
