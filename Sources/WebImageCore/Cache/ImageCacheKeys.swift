#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Cache keys derived from a base key, in SDWebImage's exact formats so that keys match across both libraries.
public enum ImageCacheKeys {
    /// The key of a thumbnail of `key`: `-Thumbnail({W.000000,H.000000},P)` inserted before the path
    /// extension, as SDWebImage's `SDThumbnailedKeyForKey` (P is 1 when the aspect ratio is kept).
    public static func thumbnailKey(for key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        transformedKey(for: key, transformerKey: "Thumbnail({\(size.width).000000,\(size.height).000000},\(preserveAspectRatio ? 1 : 0))")
    }

    /// Whether `key` names a thumbnail (it contains `-Thumbnail(`).
    public static func isThumbnailKey(_ key: String) -> Bool {
        key.contains("-Thumbnail(")
    }

    /// `key` with `-<transformerKey>` inserted before its path extension, as SDWebImage's
    /// `SDTransformedKeyForKey`:
    /// - a key that parses as a URL other than a `file:` URL, and has a path extension: the path is rebuilt, so
    ///   the query and fragment stay, and characters a path may not hold are percent-encoded (`{` → `%7B`);
    /// - another key with an extension: the same insertion, in the plain string;
    /// - a key without an extension: `-<transformerKey>` appended.
    public static func transformedKey(for key: String, transformerKey: String) -> String {
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
    public static func scaleFactor(forKey key: String) -> Double {
        guard key.utf8.count >= 8 else { return 1 }
        let search = { (bytes: UnsafeBufferPointer<UInt8>) -> Double in
            let isURL = bytes.starts(with: "http://".utf8) || bytes.starts(with: "https://".utf8)
            for factor in [UInt8(ascii: "2"), UInt8(ascii: "3")] {
                if containsScaleMarker(bytes, factor: factor, escaped: false)
                    || (isURL && containsScaleMarker(bytes, factor: factor, escaped: true))
                {
                    return Double(factor - UInt8(ascii: "0"))
                }
            }
            return 1
        }
        if let factor = key.utf8.withContiguousStorageIfAvailable(search) { return factor }
        return Array(key.utf8).withUnsafeBufferPointer(search)
    }

    /// Whether `bytes` contain `@<factor>x.`, or `%40<factor>x.` when `escaped`: a byte search, with no
    /// strings made (a cache query asks this of every key).
    private static func containsScaleMarker(_ bytes: UnsafeBufferPointer<UInt8>, factor: UInt8, escaped: Bool) -> Bool {
        let marker: [UInt8] = escaped ? [0x25, 0x34, 0x30, factor, 0x78, 0x2e] : [0x40, factor, 0x78, 0x2e]
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            var matched = true
            for offset in 1..<marker.count where bytes[start + offset] != marker[offset] {
                matched = false
                break
            }
            if matched { return true }
        }
        return false
    }
}
