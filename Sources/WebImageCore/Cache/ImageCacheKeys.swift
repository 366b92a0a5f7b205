#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Cache keys derived from a base key, in SDWebImage's exact formats so that keys match across both libraries.
package enum ImageCacheKeys {
    /// The key of a thumbnail of `key`: `-Thumbnail({W.000000,H.000000},P)` inserted before the path
    /// extension, as SDWebImage's `SDThumbnailedKeyForKey` (P is 1 when the aspect ratio is kept).
    package static func thumbnailKey(for key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        transformedKey(for: key, transformerKey: "Thumbnail({\(size.width).000000,\(size.height).000000},\(preserveAspectRatio ? 1 : 0))")
    }

    /// Whether `key` names a thumbnail (it contains `-Thumbnail(`).
    package static func isThumbnailKey(_ key: String) -> Bool {
        key.contains("-Thumbnail(")
    }

    /// `key` with `-<transformerKey>` inserted before its path extension, as SDWebImage's
    /// `SDTransformedKeyForKey`:
    /// - a key that parses as a URL other than a `file:` URL, and has a path extension: the path is rebuilt, so
    ///   the query and fragment stay, and characters a path may not hold are percent-encoded (`{` → `%7B`);
    /// - another key with an extension: the same insertion, in the plain string;
    /// - a key without an extension: `-<transformerKey>` appended.
    package static func transformedKey(for key: String, transformerKey: String) -> String {
        let url = URL(string: key)
        let ext = url.map { PathName.pathExtension($0.path) } ?? PathName.pathExtension(key)
        guard !ext.isEmpty else { return key + "-" + transformerKey }
        if let url, !url.isFileURL, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.path = PathName.deletingPathExtension(components.path) + "-" + transformerKey + "." + ext
            if let rebuilt = components.string { return rebuilt }
        }
        return PathName.deletingPathExtension(key) + "-" + transformerKey + "." + ext
    }

    /// The scale a key names, as SDWebImage's `SDImageScaleFactorForKey`: for keys of at least 8 characters,
    /// 2 or 3 when the key contains `@2x.` or `@3x.` (or, in an `http(s)` key, `%402x.` or `%403x.`), else 1.
    package static func scaleFactor(forKey key: String) -> Double {
        guard key.utf8.count >= 8 else { return 1 }
        if let factor = key.utf8.withContiguousStorageIfAvailable(scaleFactor(in:)) { return factor }
        return Array(key.utf8).withUnsafeBufferPointer(scaleFactor(in:))
    }

    /// One pass over the key's bytes, with no strings or arrays made (a cache query and every download caller
    /// ask this): `@2x.` anywhere wins over `@3x.`, as SDWebImage tries 2 before 3.
    private static func scaleFactor(in bytes: UnsafeBufferPointer<UInt8>) -> Double {
        let isURL = bytes.starts(with: "http://".utf8) || bytes.starts(with: "https://".utf8)
        var foundThree = false
        var index = 0
        while index < bytes.count {
            var factorAt = -1
            if bytes[index] == UInt8(ascii: "@") {
                factorAt = index + 1
            } else if isURL, bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                      bytes[index + 1] == UInt8(ascii: "4"), bytes[index + 2] == UInt8(ascii: "0") {
                factorAt = index + 3
            }
            if factorAt >= 0, factorAt + 2 < bytes.count, bytes[factorAt + 1] == UInt8(ascii: "x"),
               bytes[factorAt + 2] == UInt8(ascii: ".") {
                if bytes[factorAt] == UInt8(ascii: "2") { return 2 }
                if bytes[factorAt] == UInt8(ascii: "3") { foundThree = true }
            }
            index += 1
        }
        return foundThree ? 3 : 1
    }
}
